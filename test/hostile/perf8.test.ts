/**
 * The sixth pass over `costgate check` (issue 21 item 7): each fast path held against the slow path it stands
 * in for, on arbitrary and hostile input, in bounded time. `summarize` of days that come once each and in
 * order (one pass, in whole cents) against the big.js path.
 */
import Big = require("big.js");

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type RawDay, summarize } from "../../provider/billing/results";
import { addDays } from "../../provider/calendar";
import { centsAmount } from "../../provider/money";

const RUNS = { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 300) };

/** JSON with -0 told apart from 0. */
const exact = (v: unknown) => JSON.stringify(v, (_k, x) => (Object.is(x, -0) ? "-0" : x));

const HEAD = {
  projectId: 7,
  productId: 1 as const,
  periodFrom: "2026-08-01T00:00:00.000Z",
  periodTo: "2026-11-24T10:00:00.000Z",
  fromDay: "2026-08-01",
  toDay: "2026-11-24",
};

/** Whole cents: small, large, zeros (-0 too) and the bounds of centsAmount. */
const centsInt = (max: number) =>
  fc.oneof(
    fc.integer({ min: -max, max }),
    fc.integer({ min: -1000, max: 1000 }),
    fc.constantFrom(0, -0, 1, -1, 50, max, -max),
  );

/** Days in order, each once (some before the period, some after today), each amount whole cents. */
const orderedDays = (maxCents: number) =>
  fc
    .uniqueArray(fc.integer({ min: -5, max: 130 }), { maxLength: 140 })
    .chain((offsets) =>
      fc.tuple(
        fc.constant([...offsets].sort((a, b) => a - b)),
        fc.array(fc.tuple(centsInt(maxCents), fc.oneof(fc.constant(0), centsInt(maxCents))), {
          minLength: offsets.length,
          maxLength: offsets.length,
        }),
      ),
    )
    .map(([offsets, amounts]): RawDay[] =>
      offsets.map((o, i) => ({
        day: addDays(HEAD.fromDay, o),
        amount: centsAmount(amounts[i]![0] / 100) as number,
        bonuses: centsAmount(amounts[i]![1] / 100) as number,
      })),
    );

const asDecimals = (raw: RawDay[]): RawDay[] =>
  raw.map((r) => ({ day: r.day, amount: new Big(r.amount), bonuses: new Big(r.bonuses) }));

describe("summarize of ordered whole-cent days gives what big.js gives", () => {
  it("the same items, totals, averages, highest day (the first of equals), refunds, no merged days", () => {
    const started = performance.now();
    fc.assert(
      fc.property(orderedDays(1_000_000_000), fc.integer({ min: -3, max: 130 }), (raw, todayAt) => {
        const opts = { today: addDays(HEAD.fromDay, todayAt) };
        const slow = exact(summarize(HEAD, asDecimals(raw), opts));
        expect(exact(summarize(HEAD, raw, opts))).toBe(slow);
        // the same days shuffled, or one day twice, go the general way: still what big.js gives
        const reversed = [...raw].reverse();
        expect(exact(summarize(HEAD, reversed, opts))).toBe(
          exact(summarize(HEAD, asDecimals(reversed), opts)),
        );
        if (raw.length > 1) {
          const twice = [...raw, raw[raw.length - 1]!];
          expect(exact(summarize(HEAD, twice, opts))).toBe(exact(summarize(HEAD, asDecimals(twice), opts)));
        }
      }),
      RUNS,
    );
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it("sums past the exact integers, equal days and hostile sizes: the same, in bounded time", () => {
    // 200 ordered days of about ±1e12: the magnitudes pass Number.MAX_SAFE_INTEGER cents, so big.js sums them
    const big: RawDay[] = Array.from({ length: 200 }, (_, i) => ({
      day: addDays("2026-01-01", i),
      amount: i % 3 === 0 ? -1e12 : 1e12 - 0.01,
      bonuses: 0.01,
    }));
    const opts = { today: "2026-11-24" };
    expect(exact(summarize(HEAD, big, opts))).toBe(exact(summarize(HEAD, asDecimals(big), opts)));
    // equal amounts: the highest day is the first of them; -0 is not a refund
    const flat: RawDay[] = ["2026-08-02", "2026-08-03", "2026-08-04"].map((day) => ({
      day,
      amount: -0,
      bonuses: 0,
    }));
    const r = summarize(HEAD, flat, opts);
    expect(r.highestDay).toEqual({ day: "2026-08-02", totalAmount: 0, totalBonuses: 0 });
    expect(Object.is(r.highestDay?.totalAmount, -0)).toBe(false);
    expect(r.refundDays).toEqual([]);
    expect(exact(r)).toBe(exact(summarize(HEAD, asDecimals(flat), opts)));
    // 100,000 ordered days in one answer: one pass, well under a second
    const many: RawDay[] = Array.from({ length: 100_000 }, (_, i) => ({
      day: addDays("1800-01-01", i),
      amount: (i % 1000) - 400,
      bonuses: 0,
    }));
    const started = performance.now();
    const fast = summarize(HEAD, many, opts);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(exact(fast)).toBe(exact(summarize(HEAD, asDecimals(many), opts)));
  });
});
