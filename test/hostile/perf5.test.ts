/**
 * The fast paths of `costgate check`'s reading of billing answers (issue 21 item 7, fourth pass), each held
 * against the slow path it stands in for: amounts of whole cents read as numbers (`centsAmount`) against
 * readAmount; a period's days summed in whole cents against big.js (`summarize`); `YYYY-MM-DD` days turned
 * into day numbers by arithmetic against Date.UTC (`dayNumber`), and read by it against the full day reader
 * (`normalizeDay`); a series' days kept in their order when they come sorted, and read back as numbers without
 * big.js (`toSeries`, `numberOn`), against a sort and `amountOn(…).toNumber()`; a series of whole cents summed
 * without big.js, against big.js sums, and every rule's evaluation of it against the decimal path's. Arbitrary and hostile inputs, bounded time.
 * And end to end: a hostile endpoint answering amounts in every representation at once gives, through
 * getConsumption, the summary the big.js path gives.
 */
import Big = require("big.js");

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConsumption, normalizeDay } from "../../provider/billing/client";
import { type RawDay, summarize } from "../../provider/billing/results";
import { evaluate } from "../../provider/budget";
import { amountOn, firstChargeBefore, numberOn, toSeries, totalBetween } from "../../provider/budget/series";
import { addDays, dayNumber } from "../../provider/calendar";
import { ConfigError } from "../../provider/errors";
import { centsAmount, readAmount } from "../../provider/money";
import { exact, HEAD } from "./fast-paths";
import {
  consumptionAnswer,
  daysAgo,
  type HostileItem,
  type HostileServer,
  startHostileServer,
} from "./server";

const RUNS = { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 300) };

/** Numbers that are whole cents (the wire's usual amounts), zeros, negatives and the bounds included. */
const centsNumber = fc
  .oneof(
    fc.integer({ min: -1_000_000, max: 1_000_000 }),
    fc.integer({ min: -100_000_000_000_000, max: 100_000_000_000_000 }),
    fc.constantFrom(0, -0, 1, -1, 5, 50, 99_999_999_999_999, 100_000_000_000_000, -100_000_000_000_000),
  )
  .map((c) => c / 100);

/** What an endpoint may send as an amount: numbers of any kind, plain and decorated text, null, junk. */
const wireAmount = fc.oneof(
  centsNumber,
  fc.double({ noNaN: false }),
  fc.double({ min: -2e12, max: 2e12 }),
  centsNumber.map(String),
  centsNumber.map((n) => n.toFixed(2)),
  fc.stringMatching(/^-?\d{1,14}(\.\d{0,4})?$/),
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    null,
    undefined,
    "",
    "-0",
    "-0.00",
    "00",
    "0007.50",
    "1e3",
    "+5",
    " 5",
    "5 ",
    "1,312.40",
    "₽12",
  ),
  fc.constantFrom(`9${"9".repeat(100_000)}`, `0.${"0".repeat(50_000)}1`, "1e300000000"),
);

describe("centsAmount reads what readAmount reads", () => {
  it("whenever it reads an amount, it is readAmount's value as a number (never -0); whole cents always take it", () => {
    const started = performance.now();
    fc.assert(
      fc.property(wireAmount, (v) => {
        const fast = centsAmount(v);
        if (fast === undefined) return;
        const slow = readAmount(v);
        expect(slow.ok).toBe(true);
        if (!slow.ok) return;
        expect(Object.is(fast, Number(slow.value.toString()))).toBe(true);
        expect(new Big(fast).eq(slow.value)).toBe(true);
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(centsNumber, (n) => {
        expect(centsAmount(n)).toBe(n === 0 ? 0 : n);
        // text takes it up to 12 integer digits (1e12 itself is read by readAmount)
        if (Math.abs(n) < 1e12) expect(centsAmount(n.toFixed(2))).toBe(n === 0 ? 0 : n);
      }),
      { numRuns: 3000 },
    );
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("leaves to readAmount what is not surely whole cents within the bounds", () => {
    for (const v of [
      0.001,
      1e12 + 0.01,
      -1e12 - 1,
      Number.NaN,
      Infinity,
      "1.001",
      "+5",
      " 5",
      "1e3",
      true,
      {},
      [],
    ])
      expect(centsAmount(v)).toBeUndefined();
    expect(centsAmount(1e12)).toBe(1e12);
    expect(centsAmount(null)).toBe(0);
    expect(Object.is(centsAmount(-0), 0)).toBe(true);
    expect(Object.is(centsAmount("-0.00"), 0)).toBe(true);
  });
});

/** Raw days of the period (some twice, some outside it), each amount a whole number of cents. */
const rawDays = (maxCents: number) =>
  fc.array(
    fc.record({
      offset: fc.integer({ min: -3, max: 120 }),
      amount: fc.integer({ min: -maxCents, max: maxCents }),
      bonuses: fc.oneof(fc.constant(0), fc.integer({ min: -maxCents, max: maxCents })),
    }),
    { maxLength: 400 },
  );

const asNumbers = (xs: { offset: number; amount: number; bonuses: number }[]): RawDay[] =>
  xs.map((x) => ({
    day: addDays(HEAD.fromDay, x.offset),
    amount: centsAmount(x.amount / 100) as number,
    bonuses: centsAmount(x.bonuses / 100) as number,
  }));
const asDecimals = (raw: RawDay[]): RawDay[] =>
  raw.map((r) => ({ day: r.day, amount: new Big(r.amount), bonuses: new Big(r.bonuses) }));

describe("summarize in whole cents gives what big.js gives", () => {
  it("the same items, totals, averages (rounded half away from zero), highest day, refunds and merged days", () => {
    const started = performance.now();
    fc.assert(
      fc.property(
        rawDays(500_000),
        fc.boolean(),
        fc.integer({ min: 0, max: 130 }),
        (xs, fillMissingDays, todayAt) => {
          const raw = asNumbers(xs);
          const opts = { fillMissingDays, today: addDays(HEAD.fromDay, todayAt) };
          const fast = summarize(HEAD, raw, opts);
          const slow = summarize(HEAD, asDecimals(raw), opts);
          expect(exact(fast)).toBe(exact(slow));
          // one amount left as a decimal sends the whole period down the big.js path: still the same
          if (raw.length > 0) {
            const mixed = [...raw];
            mixed[0] = asDecimals([raw[0]!])[0]!;
            expect(exact(summarize(HEAD, mixed, opts))).toBe(exact(slow));
          }
        },
      ),
      RUNS,
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("amounts at the bounds, whose sums leave the exact integers, are summed by big.js: still the same", () => {
    fc.assert(
      fc.property(rawDays(100_000_000_000_000), (xs) => {
        const raw = asNumbers(xs);
        const opts = { fillMissingDays: false, today: "2026-11-24" };
        expect(exact(summarize(HEAD, raw, opts))).toBe(exact(summarize(HEAD, asDecimals(raw), opts)));
      }),
      { numRuns: 100 },
    );
    // 200 days of ±1e12: the magnitudes pass Number.MAX_SAFE_INTEGER cents
    const raw: RawDay[] = Array.from({ length: 200 }, (_, i) => ({
      day: addDays(HEAD.fromDay, i % 100),
      amount: i % 3 === 0 ? -1e12 : 1e12 - 0.01,
      bonuses: 0.01,
    }));
    const opts = { fillMissingDays: true, today: "2026-11-24" };
    expect(exact(summarize(HEAD, raw, opts))).toBe(exact(summarize(HEAD, asDecimals(raw), opts)));
  });
});

/** The Date-based dayNumber that the arithmetic replaced (provider/calendar.ts before the fourth pass). */
function dayNumberByDate(day: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    return undefined;
  return ms / 86_400_000;
}

const digits = (n: number) => fc.stringMatching(new RegExp(`^\\d{${n}}$`));
const dayText = fc.oneof(
  fc.tuple(digits(4), digits(2), digits(2)).map(([y, m, d]) => `${y}-${m}-${d}`),
  fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
    )
    .map(
      ([y, m, d]) =>
        `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`,
    ),
  fc.constantFrom(
    "2024-02-29",
    "2023-02-29",
    "1900-02-29",
    "2000-02-29",
    "0099-12-31",
    "0100-01-01",
    "9999-12-31",
  ),
  fc.string({ minLength: 10, maxLength: 10 }),
  fc.string({ maxLength: 12 }),
  fc.constantFrom("2026-11-24\n", "２０２６-11-24", "2026-1-24", "+02026-11-24"),
);

describe("dayNumber by arithmetic is what Date.UTC gives", () => {
  it("for any day text, real or not, years 0000-9999, and every day of 1600-2400", () => {
    const started = performance.now();
    fc.assert(
      fc.property(dayText, (t) => {
        expect(dayNumber(t)).toBe(dayNumberByDate(t));
      }),
      { numRuns: 10_000 },
    );
    for (let n = dayNumberByDate("1600-01-01")!; n <= dayNumberByDate("2400-12-31")!; n += 1) {
      const t = new Date(n * 86_400_000).toISOString().slice(0, 10);
      if (dayNumber(t) !== n) expect(dayNumber(t)).toBe(n);
    }
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe("normalizeDay's YYYY-MM-DD fast path reads what the full reader reads", () => {
  it("any 10-character day text, real or not, years 0000-9999: the same as the same text read the long way", () => {
    const started = performance.now();
    fc.assert(
      fc.property(dayText, (t) => {
        // a leading space is trimmed by the full reader and keeps the text off the fast path
        expect(normalizeDay(t)).toBe(normalizeDay(` ${t}`));
      }),
      { numRuns: 5000 },
    );
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe("a hostile endpoint's amounts in every representation at once", () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("getConsumption gives the summary of the same days read by readAmount and summed by big.js", async () => {
    const shapes = [
      (c: number) => c / 100,
      (c: number) => (c / 100).toFixed(2),
      (c: number) => `${(c / 100).toFixed(2)} RUB`,
      (c: number) => c / 1000,
      () => null,
      (c: number) => `${c}e-2`,
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            ago: fc.integer({ min: 1, max: 40 }),
            cents: fc.integer({ min: -5_000_000, max: 50_000_000 }),
            shape: fc.integer({ min: 0, max: shapes.length - 1 }),
            bonusShape: fc.integer({ min: 0, max: shapes.length - 1 }),
          }),
          { minLength: 1, maxLength: 60 },
        ),
        async (xs) => {
          const items: HostileItem[] = xs.map((x) => ({
            day: daysAgo(x.ago),
            totalAmount: shapes[x.shape]!(x.cents),
            totalBonuses: shapes[x.bonusShape]!(x.cents >> 3),
          }));
          server.answer = () => consumptionAnswer(items);
          const now = new Date();
          const period = { from: daysAgo(41, now), to: now };
          const started = performance.now();
          const got = await getConsumption(
            { baseUrl: server.url, token: "perf5-token-0123456789", transport: { retries: 0 } },
            { projectId: 7, ...period },
            () => now,
          );
          expect(performance.now() - started).toBeLessThan(2000);
          const read = (v: unknown) => {
            const r = readAmount(v);
            if (!r.ok) throw new Error(r.reason);
            return r.value;
          };
          const raw: RawDay[] = items.map((i) => ({
            day: i.day as string,
            amount: read(i.totalAmount),
            bonuses: read(i.totalBonuses),
          }));
          const head = {
            projectId: 7,
            productId: 1 as const,
            periodFrom: got.periodFrom,
            periodTo: got.periodTo,
            fromDay: got.periodFrom.slice(0, 10),
            toDay: got.periodTo.slice(0, 10),
          };
          const slow = summarize(head, raw, { today: now.toISOString().slice(0, 10) });
          expect(exact(got)).toBe(exact(slow));
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("toSeries and numberOn give what a sort and big.js give", () => {
  it("any charges (any doubles within ±1e12, zeros, days twice, out of order, after today): same days in order, same numbers", () => {
    const now = new Date("2026-11-24T10:00:00Z");
    // (beyond ±1e12, the wire's bounds, an amount is refused: below)
    const amount = fc.oneof(
      fc.double({ min: -1e12, max: 1e12, noNaN: true }),
      centsNumber,
      fc.constantFrom(0, -0, 5e-324, -1e12, 1e12, 0.1, 1e-7),
    );
    const charges = fc.array(
      fc.record({
        day: fc.integer({ min: -60, max: 3 }).map((n) => addDays("2026-11-24", n)),
        totalAmount: amount,
        totalBonuses: fc.constant(0),
      }),
      { maxLength: 150 },
    );
    const started = performance.now();
    fc.assert(
      fc.property(
        fc.oneof(
          charges,
          charges.map((xs) => [...xs].sort((a, b) => (a.day < b.day ? -1 : 1))),
        ),
        (xs) => {
          const series = toSeries({ consumption: xs, now });
          const days = [...series.amounts.keys()];
          expect(days).toEqual([...days].sort((a, b) => a - b));
          for (let d = series.today - 62; d <= series.today; d++) {
            const slow = amountOn(series, d).toNumber();
            expect(Object.is(numberOn(series, d), slow)).toBe(true);
          }
          // the decimals are the sums of the day's items, whatever their order
          const sums = new Map<number, Big>();
          for (const x of xs) {
            const d = dayNumber(x.day)!;
            if (d <= series.today) sums.set(d, (sums.get(d) ?? new Big(0)).plus(x.totalAmount));
          }
          expect(series.amounts.size).toBe(sums.size);
          for (const [d, v] of sums) expect(series.amounts.get(d)!.eq(v)).toBe(true);
          const positive = [...sums].filter(([d, v]) => d < series.today && v.gt(0)).map(([d]) => d);
          expect(firstChargeBefore(series, series.today)).toBe(
            positive.length ? Math.min(...positive) : undefined,
          );
          for (const [from, to] of [
            [series.today - 7, series.today - 1],
            [series.today - 61, series.today],
            [series.today - 3, series.today - 5],
          ] as const) {
            let want = new Big(0);
            for (const [d, v] of sums) if (d >= from && d <= to) want = want.plus(v);
            expect(totalBetween(series, from, to).eq(want)).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe("a charge beyond ±1e12", () => {
  it("is refused, naming the item, whatever its size or sign (any finite double past the bounds)", () => {
    const now = new Date("2026-11-24T10:00:00Z");
    const beyond = fc.oneof(
      fc.double({ min: 1e12, max: Number.MAX_VALUE, noNaN: true, minExcluded: true }),
      fc.double({ min: -Number.MAX_VALUE, max: -1e12, noNaN: true, maxExcluded: true }),
    );
    fc.assert(
      fc.property(beyond, fc.nat(5), fc.boolean(), (x, at, bonus) => {
        const xs = Array.from({ length: 6 }, (_, i) => ({
          day: addDays("2026-11-20", -i),
          totalAmount: i === at && !bonus ? x : 10,
          totalBonuses: i === at && bonus ? x : 0,
        }));
        const field = `consumption.${at}.${bonus ? "totalBonuses" : "totalAmount"}`;
        expect(() => toSeries({ consumption: xs, now })).toThrow(ConfigError);
        expect(() => toSeries({ consumption: xs, now })).toThrow(`${field}: is beyond ±1e12`);
      }),
      { numRuns: 200 },
    );
  });
});

describe("a series' decimals past 1e15 cents", () => {
  it("are the big.js sums still (a division where the number could not write them)", () => {
    const now = new Date("2026-11-24T10:00:00Z");
    const xs = Array.from({ length: 40 }, (_, i) => ({
      day: addDays("2026-11-20", -(i % 2)),
      totalAmount: i % 5 === 0 ? -999_999_999_999.99 : 999_999_999_999.97,
      totalBonuses: 0,
    }));
    const series = toSeries({ consumption: xs, now });
    expect(series.cents).toBeDefined();
    for (const day of ["2026-11-20", "2026-11-19"]) {
      const want = xs.filter((x) => x.day === day).reduce((t, x) => t.plus(x.totalAmount), new Big(0));
      const d = dayNumber(day)!;
      expect(amountOn(series, d).eq(want)).toBe(true);
      expect(Object.is(numberOn(series, d), want.toNumber())).toBe(true);
    }
    const all = xs.reduce((t, x) => t.plus(x.totalAmount), new Big(0));
    expect(totalBetween(series, series.today - 10, series.today).eq(all)).toBe(true);
  });
});

describe("an evaluation of whole cents (summed without big.js) is the decimal path's", () => {
  it("every rule, figure and message, for any charges and settings", () => {
    const now = new Date("2026-11-24T10:00:00Z");
    const charges = fc.array(
      fc.record({
        day: fc.integer({ min: -120, max: 1 }).map((n) => addDays("2026-11-24", n)),
        totalAmount: fc
          .oneof(
            fc.integer({ min: 0, max: 5_000_000 }),
            fc.integer({ min: -100_000, max: 100_000 }),
            fc.constant(0),
          )
          .map((c) => c / 100),
        totalBonuses: fc.constant(0),
      }),
      { maxLength: 200 },
    );
    const config = fc.record({
      minBalance: fc.integer({ min: 0, max: 100_000 }),
      monthlyBudget: fc.integer({ min: 1, max: 1_000_000 }),
      minRunwayDays: fc.integer({ min: 0, max: 60 }),
      forecastMethod: fc.constantFrom("model" as const, "trailing-mean" as const),
    });
    const started = performance.now();
    fc.assert(
      fc.property(charges, config, fc.integer({ min: 0, max: 10_000_000 }), (xs, cfg, balanceCents) => {
        const input = { projectId: 7, balance: balanceCents / 100, bonuses: 0, consumption: xs, now };
        const fast = evaluate(input, cfg);
        // 0.001 and -0.001 on a day already charged: the same sums, but not whole cents, so big.js sums them
        const day = xs.find((x) => x.day <= "2026-11-24")?.day;
        if (day === undefined) return;
        const odd = [
          ...xs,
          { day, totalAmount: 0.001, totalBonuses: 0 },
          { day, totalAmount: -0.001, totalBonuses: 0 },
        ];
        expect(toSeries({ consumption: odd, now }).cents).toBeUndefined();
        expect(toSeries({ consumption: xs, now }).cents).toBeDefined();
        expect(exact(evaluate({ ...input, consumption: odd }, cfg))).toBe(exact(fast));
      }),
      { numRuns: 150 },
    );
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
