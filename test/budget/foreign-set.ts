// What every foreign set's generator must be (bench/foreign.ts, foreign2.ts … foreign4.ts): ten profiles per
// seed group, splits that share no series, each series a deterministic function of its profile and seed, and
// a bill of finite, non-negative, cent-rounded amounts on every day from its start to the set's last day.
import fc from "fast-check";
import { expect, it } from "vitest";
import type { ForeignSeries } from "../../bench/foreign";

export interface ForeignSet<P extends { seed: number }> {
  profiles: readonly P[];
  splits: {
    tune: readonly number[];
    heldout: readonly number[];
    probe: readonly number[];
    confirm: readonly number[];
  };
  tune: ForeignSeries[];
  heldout: ForeignSeries[];
  generate: (p: P) => ForeignSeries;
  first: number;
  last: number;
}

/** itIsAForeignSet declares the tests every foreign set passes (inside the set's `describe`). */
export function itIsAForeignSet<P extends { seed: number }>(set: ForeignSet<P>): void {
  const all = [...set.tune, ...set.heldout];
  it("has ten profiles in each seed group and the splits share no seed or name", () => {
    expect(set.profiles).toHaveLength(10);
    expect(set.tune).toHaveLength(set.splits.tune.length * 10);
    expect(set.heldout).toHaveLength(set.splits.heldout.length * 10);
    const seeds = new Set(set.tune.map((s) => s.seed));
    expect(set.heldout.filter((s) => seeds.has(s.seed))).toEqual([]);
    expect(new Set(all.map((s) => s.name)).size).toBe(all.length);
    expect(new Set(all.map((s) => s.seed)).size).toBe(all.length);
    // the probe and confirm splits' fresh seeds share none with each other, tune or held-out
    const groups = (bases: readonly number[]) => bases.flatMap((b) => set.profiles.map((_, i) => b + i));
    const { tune, heldout, probe, confirm } = set.splits;
    const seen = groups([...tune, ...heldout, ...probe, ...confirm]);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("gives the same series for the same profile and seed, and another for another seed", () => {
    for (const p of set.profiles) {
      expect(set.generate(p)).toEqual(set.generate({ ...p }));
      expect(set.generate({ ...p, seed: p.seed + 1000 }).daily).not.toEqual(set.generate(p).daily);
    }
  });

  it("bills every day from the start to the set's last day in finite, non-negative, cent-rounded amounts", () => {
    for (const s of all) {
      expect(s.firstDay, s.name).toBeGreaterThanOrEqual(set.first);
      expect(s.firstDay + s.daily.length - 1, s.name).toBe(set.last);
      const bad = s.daily.filter(
        (x) => !Number.isFinite(x) || x < 0 || Math.abs(x * 100 - Math.round(x * 100)) > 1e-6,
      );
      expect(bad, s.name).toEqual([]);
    }
  });

  it("stays well-formed for any seed, in bounded time", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.nat(set.profiles.length - 1), (seed, i) => {
        const started = performance.now();
        const s = set.generate({ ...set.profiles[i]!, seed });
        expect(performance.now() - started).toBeLessThan(500);
        expect(s.firstDay + s.daily.length - 1).toBe(set.last);
        expect(s.daily.every((x) => Number.isFinite(x) && x >= 0)).toBe(true);
        expect(s.story).toEqual([...s.story].sort());
      }),
      { numRuns: 60 },
    );
  });
}
