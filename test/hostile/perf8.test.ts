/**
 * The sixth pass over `costgate check` (issue 21 item 7): each fast path held against the slow path it stands
 * in for, on arbitrary and hostile input, in bounded time. `summarize` of days that come once each and in
 * order (one pass, in whole cents) against the big.js path; the budget rules' averages, daily rate, runway,
 * month-end forecast, available money and min-balance comparison in integers (or as numbers) against the
 * big.js formulas they replaced, on any doubles: whole cents, fractions of a cent, -0, the bounds, 1e300.
 * Per request: the GraphQL URL kept for the last base address (the same answer or refusal in any order), and
 * a URL's user info looked for only where its text has an "@".
 */
import Big = require("big.js");

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { graphqlUrl } from "../../provider/billing/client";
import { type RawDay, summarize } from "../../provider/billing/results";
import { evaluate } from "../../provider/budget";
import { dailyRateOf, trailingOf } from "../../provider/budget/average";
import { forecastMonthEnd } from "../../provider/budget/forecast";
import { availableOf, runwayOf } from "../../provider/budget/runway";
import { toSeries } from "../../provider/budget/series";
import { addDays, dayNumber } from "../../provider/calendar";
import {
  cents,
  centsAmount,
  fromCents,
  quotientHalfAway,
  tenthsDown,
  wholeCents,
} from "../../provider/money";
import { exact, HEAD } from "./fast-paths";

const RUNS = { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 300) };

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

/** Any number a rule may be handed: whole cents (small, large, at the bounds), fractions, -0, huge, tiny. */
const anyAmount = fc.oneof(
  centsInt(1_000_000_000).map((c) => c / 100),
  centsInt(100_000_000_000_000).map((c) => c / 100),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -2e12, max: 2e12, noNaN: true }),
  fc.constantFrom(0, -0, 0.001, -0.005, 0.005, 1e12, -1e12, 1e12 + 0.01, 1e-7, 5e-324, 1e300, 0.1 + 0.2),
);

/** The big.js formulas of the fifth pass, which the integers stand in for. */
const SLOW = {
  dailyRate: (average: number, extra: number) => Math.max(0, cents(new Big(average).plus(cents(extra)))),
  runway: (available: number, rate: number) => tenthsDown(new Big(available).div(rate)),
  available: (balance: number, bonuses: number) => cents(new Big(balance).plus(bonuses)),
};

describe("the rules' arithmetic in integers gives what big.js gives", () => {
  it("wholeCents is exact or undefined; quotients round half away from zero as cents() of the decimal", () => {
    const started = performance.now();
    fc.assert(
      fc.property(anyAmount, (x) => {
        const c = wholeCents(x);
        if (c !== undefined) {
          expect(new Big(x).times(100).eq(c)).toBe(true);
          expect(Object.is(c, -0)).toBe(false);
          expect(fromCents(c)).toBe(cents(x));
        }
        if (Number.isInteger(x * 100) && Math.abs(x) <= 1e10 && cents(x) === x) expect(c).toBeDefined();
      }),
      RUNS,
    );
    fc.assert(
      fc.property(centsInt(100_000_000_000_000), fc.integer({ min: 1, max: 100_000 }), (c, days) => {
        const slow = cents(new Big(fromCents(c)).div(days));
        expect(exact(fromCents(quotientHalfAway(c, days)))).toBe(exact(slow));
      }),
      RUNS,
    );
    // ties, both signs
    for (const [c, d] of [
      [1, 2],
      [-1, 2],
      [3, 2],
      [-3, 2],
      [5, 10],
      [-5, 10],
      [0, 7],
      [-0, 7],
    ] as const)
      expect(exact(fromCents(quotientHalfAway(c, d)))).toBe(exact(cents(new Big(fromCents(c)).div(d))));
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("daily rate, runway, available money and the min-balance comparison, for any numbers", () => {
    const started = performance.now();
    fc.assert(
      fc.property(anyAmount, anyAmount, (a, b) => {
        expect(exact(dailyRateOf(a, b))).toBe(exact(SLOW.dailyRate(a, b)));
        expect(exact(availableOf(a, b, true))).toBe(exact(SLOW.available(a, b)));
        const available = cents(a);
        const trailing = { average: cents(b), total: 0, days: 7, from: null, to: null };
        const r = runwayOf(available, trailing, 0);
        const rate = SLOW.dailyRate(trailing.average, 0);
        if (available > 0 && rate > 0) expect(exact(r.days)).toBe(exact(SLOW.runway(available, rate)));
        // min-balance through the engine (minBalance in cents, as its settings require)
        const minBalance = cents(b);
        if (Math.abs(minBalance) > 1e12) return;
        const now = new Date("2026-11-24T10:00:00Z");
        const input = { projectId: 7, balance: a, bonuses: 0, consumption: [], now };
        let status: string | undefined;
        try {
          status = evaluate(input, { minBalance }).findings.find((f) => f.rule === "min-balance")?.status;
        } catch {
          return; // refused settings: no comparison made on either path
        }
        expect(status).toBe(new Big(availableOf(a, 0, false)).gte(minBalance) ? "pass" : "fail");
      }),
      RUNS,
    );
    // a runway a hair under a whole tenth stays under it; the largest quotients stay exact
    for (const [available, rate] of [
      [99.99, 10],
      [1e12, 0.01],
      [0.01, 1e12],
      [1e12, 3],
      [999_999_999_999.99, 0.03],
      [10, 3],
    ] as const)
      expect(
        exact(runwayOf(available, { average: rate, total: 0, days: 7, from: null, to: null }, 0).days),
      ).toBe(exact(SLOW.runway(available, rate)));
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it("the month-end forecast and the trailing average, for any whole-cent charges and extra cost", () => {
    const now = new Date("2026-11-24T10:00:00Z");
    const charges = fc.array(
      fc.record({
        day: fc.integer({ min: -60, max: 0 }).map((n) => addDays("2026-11-24", n)),
        totalAmount: centsInt(100_000_000_000).map((c) => c / 100),
        totalBonuses: fc.constant(0),
      }),
      { maxLength: 120 },
    );
    const started = performance.now();
    fc.assert(
      fc.property(charges, anyAmount, fc.integer({ min: 1, max: 60 }), (xs, extra, trailingDays) => {
        if (!Number.isFinite(extra) || Math.abs(extra) > 1e12) return;
        const f = forecastMonthEnd({ consumption: xs, now }, { trailingDays, extraDailyCost: extra });
        const slow = cents(new Big(f.monthToDate).plus(new Big(f.dailyRate).times(f.daysLeft)));
        expect(exact(f.forecast)).toBe(exact(slow));
        const series = toSeries({ consumption: xs, now });
        const t = trailingOf(series, trailingDays);
        if (t.days > 0) {
          let total = new Big(0);
          for (const x of xs) {
            const d = dayNumber(x.day) as number;
            if (d >= series.today - t.days && d < series.today) total = total.plus(x.totalAmount);
          }
          expect(t.exact.eq(total.div(t.days))).toBe(true);
          expect(exact(t.average)).toBe(exact(cents(total.div(t.days))));
          expect(exact(t.total)).toBe(exact(cents(total)));
        }
      }),
      { numRuns: 200 },
    );
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});

describe("per request: what is kept and skipped is what would be computed", () => {
  /** Base addresses, good and bad: schemes, user info, queries, trailing slashes, junk. */
  const base = fc.oneof(
    fc.constantFrom(
      "http://127.0.0.1:8080",
      "https://console.example/",
      "https://console.example/bill/graphql",
      "https://console.example//bill/graphql//",
      " https://console.example/x/ ",
      "https://u:p@console.example",
      "https://console.example/?q=1",
      "https://console.example/#f",
      "ftp://console.example",
      "not a url",
      "",
    ),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.string({ maxLength: 40 }),
  );
  const outcome = (b: string, field: string) => {
    try {
      return `ok ${graphqlUrl(b, field)}`;
    } catch (e) {
      return `refused ${(e as { field?: string }).field} ${(e as Error).message}`;
    }
  };

  it("graphqlUrl answers each base address the same, first or again, whatever came before", () => {
    const started = performance.now();
    fc.assert(
      fc.property(
        fc.array(fc.tuple(base, fc.constantFrom("billingUrl", "url")), { maxLength: 12 }),
        (calls) => {
          const first = calls.map(([b, f]) => outcome(b, f));
          const again = [...calls].reverse().map(([b, f]) => outcome(b, f));
          expect(again.reverse()).toEqual(first);
          // each again right after itself (the kept one answers)
          for (const [i, [b, f]] of calls.entries()) expect(outcome(b, f)).toBe(first[i]);
        },
      ),
      RUNS,
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("a URL has user info only when its text has an @", () => {
    const text = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.string({ maxLength: 60 }).map((t) => `http://${t}`),
      fc.string({ maxLength: 60 }).map((t) => `https://h${t}`),
      fc.constantFrom(
        "http://u:p@h",
        "http://u%40x:p%3A@h",
        "http://%40@h",
        "http://u:p%40@h",
        "http:\\\\u:p@h",
        "http://u:p\uFF20h",
        "http://u:p%40h",
        "http://\tu:p@h",
      ),
    );
    fc.assert(
      fc.property(text, (t) => {
        let u: URL;
        try {
          u = new URL(t);
        } catch {
          return;
        }
        if (u.username !== "" || u.password !== "") expect(t.includes("@")).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
