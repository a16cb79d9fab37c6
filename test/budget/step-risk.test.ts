/**
 * The step mixture's quantiles (provider/budget/model.ts `stepRisk`), sorted natively since session 14: the
 * same numbers to the last bit as the comparator sort of [value, weight] pairs it replaced, ties included; and
 * the median of a few numbers, sorted by insertion since then: the native sort's to the last bit.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ForecastReason, median, stepRisk, stepTrend } from "../../provider/budget/model";

/** The session-13 stepRisk with steps read (a stable comparator sort of pairs, weights summed in its order). */
function comparatorStepRisk(ratios: number[], sizes: number[], n: number, horizon: number) {
  const chance = 1 - Math.exp((-1 * sizes.length * horizon) / n);
  const samples: [number, number][] = ratios.map((r) => [r, (1 - chance) / ratios.length]);
  const each = chance / (ratios.length * sizes.length * 3);
  for (const r of ratios)
    for (const s of sizes) for (const u of [0.25, 0.5, 0.75]) samples.push([r * (1 + (s - 1) * u), each]);
  samples.sort((a, b) => a[0] - b[0]);
  return (q: number) => {
    let acc = 0;
    for (const [v, w] of samples) {
      acc += w;
      if (acc >= q) return v;
    }
    return samples[samples.length - 1]![0];
  };
}

const stepsOf = (sizes: number[]): ForecastReason[] =>
  sizes.map((ratio, i) => ({ kind: "step", day: 20_000 + 7 * i, ratio }) as ForecastReason);

describe("stepRisk", () => {
  it("gives the comparator sort's quantiles bit for bit, where stepped ratios tie the ratios as they are", () => {
    // values from a small set make ties between the ratios and the stepped ones (1 × (1 + (2 − 1) × ½) = 1.5
    // is a ratio too), and among each; 0 ties every step of itself
    const value = fc.oneof(
      fc.constantFrom(0, 0.5, 1, 1.25, 1.5, 2, 3),
      fc.double({ min: 0, max: 5, noNaN: true, noDefaultInfinity: true }),
    );
    const size = fc.oneof(
      fc.constantFrom(0.5, 2, 3, 1.5),
      fc.double({ min: 0.2, max: 5, noNaN: true, noDefaultInfinity: true }),
    );
    const q = fc.oneof(fc.constantFrom(0, 0.5, 0.8, 0.9, 1), fc.double({ min: 0, max: 1, noNaN: true }));
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 60 }),
        fc.array(size, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 14, max: 120 }),
        fc.integer({ min: 1, max: 45 }),
        fc.array(q, { minLength: 1, maxLength: 5 }),
        (ratios, sizes, n, horizon, qs) => {
          const got = stepRisk(ratios, stepsOf(sizes), n, horizon);
          const want = comparatorStepRisk(ratios, sizes, n, horizon);
          for (const x of qs) expect(Object.is(got(x), want(x)), `q ${x}`).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("without steps read, gives the ratios' own quantiles", () => {
    const risky = stepRisk([3, 1, 2, 4, 5], [], 60, 10);
    expect(risky(0.5)).toBe(3);
    expect(risky(0.75)).toBe(4);
  });
});

describe("median", () => {
  it("of up to 40 numbers is the native sort's, bit for bit: −0 and 0, NaN, ties, infinities", () => {
    const native = (xs: number[]) => {
      const s = Float64Array.from(xs).sort();
      const m = Math.floor(s.length / 2);
      return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
    };
    const value = fc.oneof(
      fc.constantFrom(-0, 0, 1, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 5e-324),
      fc.double(),
    );
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 40 }), (xs) => {
        expect(Object.is(median(xs), native(xs)), JSON.stringify(xs.map(String))).toBe(true);
      }),
      { numRuns: 5000 },
    );
    expect(Object.is(median([0, -0, 0]), 0)).toBe(true);
    expect(Object.is(median([0, -0, -0]), -0)).toBe(true);
    expect(median([])).toBe(0);
  });
});

describe("stepTrend", () => {
  /** Steps of `sizes` (oldest first) `gaps` days apart (12 unless told), and the day 10 days after the last. */
  const read = (sizes: number[], gaps: number[] = []) => {
    const steps: ForecastReason[] = [];
    let day = 20_000;
    for (const [i, ratio] of sizes.entries()) {
      day += gaps[i] ?? 12;
      steps.push({ kind: "step", day, ratio });
    }
    return stepTrend(steps, day + 10);
  };

  it("leaves out one removal among additions, the others' t read at most twice the gate (session 18)", () => {
    // five additions of 20–30 % and one −15 %: with it the mean stands under 3 standard errors (no trend)
    expect(read([1.2, 1.25, 1.2, 1.3, 1.2])?.share).toBeGreaterThan(0.9);
    const t = read([1.2, 0.85, 1.25, 1.2, 1.3, 1.2]);
    expect(t).toMatchObject({ steps: 6 });
    expect(t!.share).toBe(0.75);
    expect(t!.ratio).toBeGreaterThan(1.2);
    // a removal the next step takes back only in part, 5 days later, is a level that moved: left out too
    expect(read([1.2, 1.25, 0.85, 1.1, 1.3, 1.2], [12, 12, 12, 5, 12, 12])?.share).toBe(0.75);
  });

  it("keeps the removal where it may be the turn, a change of scale, a dip, or where the others begin", () => {
    // the newest step; one larger than every addition; one taken back within a week (a dip read as two
    // steps); the oldest (none of the others' way before it); and of fewer than 5 steps
    expect(read([1.2, 1.25, 1.2, 1.3, 1.2, 0.85])).toBeUndefined();
    expect(read([1.2, 0.6, 1.25, 1.2, 1.3, 1.2])).toBeUndefined();
    expect(read([1.2, 1.25, 0.85, 1.2, 1.3, 1.2], [12, 12, 12, 5, 12, 12])).toBeUndefined();
    expect(read([0.8, 1.2, 1.25, 1.15, 1.3, 1.2])).toBeUndefined();
    expect(read([1.2, 0.85, 1.25, 1.3])).toBeUndefined();
    // the same on a shrinking fleet: one addition among removals is left out, unless a removal takes it back
    // within a week (a burst read as two steps)
    const down = read([0.8, 0.75, 1.2, 0.9, 0.7, 0.8]);
    expect(down!.share).toBeGreaterThan(0.5);
    expect(down!.ratio).toBeLessThan(0.85);
    expect(read([0.8, 0.75, 1.2, 0.8, 0.7, 0.8], [12, 12, 12, 5, 12, 12])).toBeUndefined();
    // steps up and down alike: leaving one out leaves steps both ways
    expect(read([1.2, 0.85, 1.2, 0.85, 1.2, 0.85])).toBeUndefined();
  });

  it("counts less on a staircase quiet for longer than its usual spacing, unless its level still climbs (session 19)", () => {
    // five additions 12 days apart: 10 days after the last, the trend is followed whole; 36 days after (two gaps
    // past the usual one) with the level flat since, by e^(−2) of it; with the level still climbing since (small
    // steps the noise test does not read), whole again
    const steps: ForecastReason[] = [1.2, 1.25, 1.2, 1.3, 1.2].map(
      (ratio, i) => ({ kind: "step", day: 20_012 + 12 * i, ratio }) as ForecastReason,
    );
    const last = 20_012 + 48;
    const flat = Array.from({ length: 84 }, (_, i) => 100 * (1 + 0.03 * Math.sin(i * 1.7)));
    const climbs = flat.map((v, i) => v * Math.exp(0.004 * i));
    const soon = stepTrend(steps, last + 10, flat)!;
    expect(soon.share).toBeGreaterThan(0.9);
    expect(stepTrend(steps, last + 36, flat)!.share).toBeCloseTo(soon.share * Math.exp(-2), 6);
    expect(stepTrend(steps, last + 36, climbs)!.share).toBe(soon.share);
    // a level that falls since (against the staircase) says it stopped as much as a flat one
    const falls = flat.map((v, i) => v * Math.exp(-0.004 * i));
    expect(stepTrend(steps, last + 36, falls)!.share).toBeCloseTo(soon.share * Math.exp(-2), 6);
    // a shrinking staircase: its level still falling keeps it, a flat level does not
    const down: ForecastReason[] = steps.map(
      (s) => ({ ...s, ratio: 1 / (s as { ratio: number }).ratio }) as ForecastReason,
    );
    expect(stepTrend(down, last + 36, falls)!.share).toBe(stepTrend(down, last + 10, flat)!.share);
    expect(stepTrend(down, last + 36, flat)!.share).toBeLessThan(0.2);
  });

  it("reads the level's drift as a share in [0, 1] on hostile days: zero, huge, negative, tiny, fast", () => {
    const day = fc.oneof(
      fc.constantFrom(0, -1, 1e-300, 1e300, Number.MAX_VALUE, 5e-324, 100),
      fc.double({ min: -10, max: 1e6, noNaN: true }),
    );
    const steps: ForecastReason[] = [1.2, 1.25, 1.2, 1.3, 1.2].map(
      (ratio, i) => ({ kind: "step", day: 20_012 + 7 * i + (i > 0 ? 5 * i : 0), ratio }) as ForecastReason,
    );
    fc.assert(
      fc.property(fc.array(day, { maxLength: 400 }), fc.integer({ min: 0, max: 2000 }), (level, ahead) => {
        const started = performance.now();
        const t = stepTrend(steps, 20_060 + ahead, level);
        expect(performance.now() - started).toBeLessThan(50);
        if (t === undefined) return;
        expect(t.share).toBeGreaterThan(0);
        expect(t.share).toBeLessThanOrEqual(1);
        expect(Number.isFinite(t.ratio)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("stays a share in (0, 1] with a finite count on hostile steps: zero, huge, negative, duplicate days", () => {
    const ratio = fc.oneof(
      fc.constantFrom(0, -1, 1, 1e-300, 1e300, Number.MAX_VALUE, 5e-324, 1.2, 0.8),
      fc.double({ min: -10, max: 1e6, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(ratio, fc.integer({ min: 0, max: 30 })), { maxLength: 12 }),
        fc.integer({ min: 0, max: 400 }),
        (xs, ahead) => {
          const steps: ForecastReason[] = [];
          let day = 20_000;
          for (const [ratio, gap] of xs) {
            day += gap;
            steps.push({ kind: "step", day, ratio });
          }
          const started = performance.now();
          const t = stepTrend(steps, day + ahead);
          expect(performance.now() - started).toBeLessThan(50);
          if (t === undefined) return;
          expect(t.share).toBeGreaterThan(0);
          expect(t.share).toBeLessThanOrEqual(1);
          expect(Number.isFinite(t.steps)).toBe(true);
          expect(t.ratio).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
