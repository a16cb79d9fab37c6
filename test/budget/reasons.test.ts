import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dayNumber } from "../../provider/budget/days";
import { evaluate } from "../../provider/budget/engine";
import type { ForecastReason } from "../../provider/budget/model";
import {
  MAX_REASONS,
  ordinal,
  reasonFieldsOf,
  reasonFiguresOf,
  reasonText,
} from "../../provider/budget/reasons";

const day = (d: string) => dayNumber(d)!;
const TODAY = day("2026-11-22");

describe("reasonText", () => {
  it.each([
    [
      { kind: "step", day: "2026-11-12", ratio: 1.18 },
      "the level rose 18 % on 12 November (a step: the days before are read at the new level)",
    ],
    [
      { kind: "step", day: "2026-11-12", ratio: 0.8 },
      "the level fell 20 % on 12 November (a step: the days before are read at the new level)",
    ],
    [
      { kind: "step", day: "2026-11-12", ratio: 2.5 },
      "the level rose 2.5× on 12 November (a step: the days before are read at the new level)",
    ],
    [
      { kind: "step", day: "2026-11-12", ratio: 1.004 },
      "the level changed under 1 % on 12 November (a step: the days before are read at the new level)",
    ],
    [
      { kind: "day-of-month", dayOfMonth: 1, amount: 1250 },
      "a charge of about 1,250.00 recurs on the 1st of each month and is forecast there",
    ],
    [
      { kind: "day-of-month", dayOfMonth: 22, amount: -40 },
      "a credit of about 40.00 recurs on the 22nd of each month and is forecast there",
    ],
    [
      { kind: "day-of-month", dayOfMonth: 3, amount: 900, weekday: 1 },
      "a charge of about 900.00 recurs on the first Monday of each month and is forecast there",
    ],
    [
      { kind: "day-of-month", dayOfMonth: 7, amount: -12, weekday: 0 },
      "a credit of about 12.00 recurs on the first Sunday of each month and is forecast there",
    ],
    [
      { kind: "delay", day: "2026-11-03" },
      "the charges of 3 November arrived with 4 November's (read as one delay, not a drop and a spike)",
    ],
    [
      { kind: "delay", day: "2026-10-31" },
      "the charges of 31 October arrived with 1 November's (read as one delay, not a drop and a spike)",
    ],
    [
      { kind: "spike", day: "2026-11-07", ratio: 3.24 },
      "7 November was a one-off (3.2× a usual day), left out of the level",
    ],
    [
      { kind: "step-trend", steps: 4, ratio: 1.152 },
      "the level's last 4 steps went up, by about 15 % each: the median counts on the next ones as often as they came",
    ],
    [
      { kind: "step-trend", steps: 3, ratio: 0.88 },
      "the level's last 3 steps went down, by about 12 % each: the median counts on the next ones as often as they came",
    ],
    [
      { kind: "step-trend", steps: 2, ratio: 2.5 },
      "the level's last 2 steps went up, by 2.5× each: the median counts on the next ones as often as they came",
    ],
    [
      { kind: "bursts", bursts: 3, daily: 1204.5 },
      "the level burst 3 times and came back to one base each time: the days ahead are forecast at the history's mean day, about 1,204.50",
    ],
    [
      { kind: "ramp", days: 23, ratio: 1.031 },
      "the level rose through each third of its 23 days, about +3.1 % a day (a fleet still moving in): the median follows half of that growth",
    ],
  ] as const)("%j", (reason, text) => {
    expect(reasonText(reason, { today: "2026-11-22" })).toBe(text);
  });

  it("names the currency after an amount, and the year of a day in another year than today's", () => {
    expect(reasonText({ kind: "day-of-month", dayOfMonth: 3, amount: 9.5 }, { currency: "EUR" })).toBe(
      "a charge of about 9.50 EUR recurs on the 3rd of each month and is forecast there",
    );
    expect(reasonText({ kind: "day-of-month", dayOfMonth: 31, amount: 2000 }, { currency: "EUR" })).toBe(
      "a charge of about 2,000.00 EUR recurs on the last day of each month and is forecast there",
    );
    expect(reasonText({ kind: "day-of-month", dayOfMonth: 30, amount: -5 })).toBe(
      "a credit of about 5.00 recurs on the 30th of each month (the last day in shorter months) and is forecast there",
    );
    // (rolled: billed on the next 1st after shorter months — session 12)
    expect(reasonText({ kind: "day-of-month", dayOfMonth: 31, amount: 4.9, rolled: true })).toBe(
      "a charge of about 4.90 recurs on the 31st of each month (the next month's 1st after shorter months) and is forecast there",
    );
    // (businessDay: the month's last or first Monday–Friday — session 14)
    expect(
      reasonText(
        { kind: "day-of-month", dayOfMonth: 30, amount: 4700, businessDay: "last" },
        { currency: "EUR" },
      ),
    ).toBe(
      "a charge of about 4,700.00 EUR recurs on the last business day of each month (Monday–Friday; next on the 30th) and is forecast there",
    );
    expect(reasonText({ kind: "day-of-month", dayOfMonth: 2, amount: 12, businessDay: "first" })).toBe(
      "a charge of about 12.00 recurs on the first business day of each month (Monday–Friday; next on the 2nd) and is forecast there",
    );
    expect(reasonText({ kind: "delay", day: "2026-12-31" }, { today: "2027-01-05" })).toBe(
      "the charges of 31 December 2026 arrived with 1 January's (read as one delay, not a drop and a spike)",
    );
  });

  it("writes ordinals", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31].map(ordinal)).toEqual(
      "1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 23rd 31st".split(" "),
    );
  });
});

describe("reasonFieldsOf", () => {
  it("keeps `rolled` only where a charge of the 29th–31st may roll to the next 1st", () => {
    const f = reasonFieldsOf(
      [
        { kind: "day-of-month", dayOfMonth: 31, amount: 4.9, rolled: true },
        { kind: "day-of-month", dayOfMonth: 15, amount: 1.19, rolled: true },
      ],
      TODAY,
    );
    expect(f).toEqual([
      { kind: "day-of-month", dayOfMonth: 31, amount: 4.9, rolled: true },
      { kind: "day-of-month", dayOfMonth: 15, amount: 1.19 },
    ]);
  });

  it("keeps `businessDay` only as `last` (26th–31st) or `first` (1st–3rd), without `weekday` or `rolled` beside it", () => {
    const f = reasonFieldsOf(
      [
        { kind: "day-of-month", dayOfMonth: 30, amount: 4700, businessDay: "last", rolled: true, weekday: 5 },
        { kind: "day-of-month", dayOfMonth: 2, amount: 12, businessDay: "first" },
        { kind: "day-of-month", dayOfMonth: 3, amount: 5, businessDay: "<script>" as "last" },
        { kind: "day-of-month", dayOfMonth: 32, amount: 5, businessDay: "last" },
        { kind: "day-of-month", dayOfMonth: 15, amount: 6, businessDay: "last" },
        { kind: "day-of-month", dayOfMonth: 4, amount: 7, businessDay: "first" },
      ],
      TODAY,
    );
    expect(f).toEqual([
      { kind: "day-of-month", dayOfMonth: 30, amount: 4700, businessDay: "last" },
      { kind: "day-of-month", dayOfMonth: 2, amount: 12, businessDay: "first" },
      { kind: "day-of-month", dayOfMonth: 3, amount: 5 },
      { kind: "day-of-month", dayOfMonth: 15, amount: 6 },
      { kind: "day-of-month", dayOfMonth: 4, amount: 7 },
    ]);
  });

  it("writes the day as YYYY-MM-DD, the ratio to 3 decimals and the amount to cents", () => {
    expect(
      reasonFiguresOf(
        [
          { kind: "step", day: day("2026-11-12"), ratio: 1.17647 },
          { kind: "day-of-month", dayOfMonth: 1, amount: 1250.004 },
          { kind: "day-of-month", dayOfMonth: 2, amount: 300.004, weekday: 1 },
        ],
        TODAY,
      ),
    ).toEqual([
      {
        kind: "step",
        day: "2026-11-12",
        ratio: 1.176,
        text: "the level rose 18 % on 12 November (a step: the days before are read at the new level)",
      },
      {
        kind: "day-of-month",
        dayOfMonth: 1,
        amount: 1250,
        text: "a charge of about 1,250.00 recurs on the 1st of each month and is forecast there",
      },
      {
        kind: "day-of-month",
        dayOfMonth: 2,
        amount: 300,
        weekday: 1,
        text: "a charge of about 300.00 recurs on the first Monday of each month and is forecast there",
      },
    ]);
  });

  it("leaves out what cannot be said truthfully", () => {
    const bad = [
      { kind: "step", day: day("2026-11-12"), ratio: Number.NaN },
      { kind: "step", day: day("2026-11-12"), ratio: Number.POSITIVE_INFINITY },
      { kind: "step", day: day("2026-11-12"), ratio: 0 },
      { kind: "spike", day: day("2026-11-12"), ratio: -2 },
      { kind: "delay", day: 20000.5 },
      { kind: "delay", day: TODAY + 1 },
      { kind: "delay", day: -1 },
      { kind: "day-of-month", dayOfMonth: 0, amount: 10 },
      { kind: "day-of-month", dayOfMonth: 32, amount: 10 },
      { kind: "day-of-month", dayOfMonth: 1.5, amount: 10 },
      { kind: "day-of-month", dayOfMonth: 1, amount: 0.001 },
      { kind: "day-of-month", dayOfMonth: 1, amount: Number.NaN },
      { kind: "day-of-month", dayOfMonth: 1, amount: 10, weekday: 7 },
      { kind: "day-of-month", dayOfMonth: 1, amount: 10, weekday: -1 },
      { kind: "day-of-month", dayOfMonth: 1, amount: 10, weekday: 1.5 },
      { kind: "day-of-month", dayOfMonth: 1, amount: 10, weekday: Number.NaN },
      { kind: "day-of-month", dayOfMonth: 1, amount: 10, weekday: "1" },
      { kind: "day-of-month", dayOfMonth: 1, amount: 10, weekday: null },
      { kind: "day-of-month", dayOfMonth: 8, amount: 10, weekday: 1 },
      { kind: "trend", day: day("2026-11-12") },
      { kind: "step-trend", steps: 1, ratio: 1.2 },
      { kind: "step-trend", steps: 2.5, ratio: 1.2 },
      { kind: "step-trend", steps: 1e9, ratio: 1.2 },
      { kind: "step-trend", steps: 3, ratio: 1.0004 },
      { kind: "step-trend", steps: 3, ratio: Number.NaN },
      { kind: "step-trend", steps: 3, ratio: -1.2 },
      { kind: "step-trend", ratio: 1.2 },
      { kind: "bursts", bursts: 1, daily: 100 },
      { kind: "bursts", bursts: 2.5, daily: 100 },
      { kind: "bursts", bursts: 1e9, daily: 100 },
      { kind: "bursts", bursts: 3, daily: Number.NaN },
      { kind: "bursts", bursts: 3, daily: Number.POSITIVE_INFINITY },
      { kind: "bursts", bursts: 3, daily: -5 },
      { kind: "bursts", bursts: 3, daily: 0.001 },
      { kind: "bursts", bursts: 3, daily: "100" },
      { kind: "bursts", daily: 100 },
      { kind: "ramp", days: 8, ratio: 1.03 },
      { kind: "ramp", days: 23.5, ratio: 1.03 },
      { kind: "ramp", days: 1e9, ratio: 1.03 },
      { kind: "ramp", days: 23, ratio: 1.0004 },
      { kind: "ramp", days: 23, ratio: 0.97 },
      { kind: "ramp", days: 23, ratio: 1.5 },
      { kind: "ramp", days: 23, ratio: Number.NaN },
      { kind: "ramp", days: 23, ratio: Number.POSITIVE_INFINITY },
      { kind: "ramp", days: 23, ratio: "1.03" },
      { kind: "ramp", ratio: 1.03 },
      null,
    ] as unknown as ForecastReason[];
    expect(reasonFieldsOf(bad, TODAY)).toEqual([]);
    expect(reasonFieldsOf(undefined as unknown as ForecastReason[], TODAY)).toEqual([]);
  });

  it(`keeps the latest ${MAX_REASONS} of more`, () => {
    const many: ForecastReason[] = Array.from({ length: 50 }, (_, i) => ({
      kind: "delay",
      day: TODAY - 50 + i,
    }));
    const kept = reasonFieldsOf(many, TODAY);
    expect(kept).toHaveLength(MAX_REASONS);
    expect(kept[kept.length - 1]).toEqual({ kind: "delay", day: "2026-11-21" });
  });

  it("says any reason with numbers only, in bounded time", () => {
    const num = fc.oneof(fc.double(), fc.integer({ min: -100, max: TODAY + 100 }));
    const reason = fc.record({
      kind: fc.constantFrom(
        "step",
        "day-of-month",
        "delay",
        "spike",
        "step-trend",
        "ramp",
        "bursts",
        "other",
      ),
      day: num,
      steps: num,
      days: num,
      bursts: num,
      daily: num,
      ratio: num,
      dayOfMonth: num,
      amount: num,
      weekday: fc.oneof(fc.constant(undefined), num, fc.constant("1"), fc.constant(null)),
    });
    const started = performance.now();
    fc.assert(
      fc.property(fc.array(reason, { maxLength: 40 }), (reasons) => {
        const figures = reasonFiguresOf(reasons as unknown as ForecastReason[], TODAY);
        expect(figures.length).toBeLessThanOrEqual(MAX_REASONS);
        for (const f of figures) {
          expect(f.text).not.toMatch(/NaN|Infinity|undefined|Invalid/);
          if ("day" in f) expect(f.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          expect(JSON.parse(JSON.stringify(f))).toEqual(f);
        }
      }),
      { numRuns: 300 },
    );
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe("evaluate", () => {
  it("gives the step the model finds in figures.forecast.reasons, with its words", () => {
    // 8 weeks at 1,000.00 a day, then 3 weeks at 1,600.00 from 1 November, with ±3 % of noise
    const consumption = Array.from({ length: 77 }, (_, i) => {
      const d = day("2026-09-06") + i;
      return {
        day: new Date(d * 86_400_000).toISOString().slice(0, 10),
        totalAmount: Math.round((d >= day("2026-11-01") ? 1600 : 1000) * (1 + 0.03 * Math.sin(i * 1.7))),
        totalBonuses: 0,
      };
    });
    const e = evaluate(
      { projectId: 1, balance: 1e6, bonuses: 0, consumption, now: new Date("2026-11-22T10:00:00Z") },
      { monthlyBudget: 50000 },
    );
    expect(e.figures.forecast.reasons).toEqual([
      {
        kind: "step",
        day: "2026-11-01",
        ratio: expect.closeTo(1.6, 1),
        text: expect.stringMatching(
          /^the level rose 6\d % on 1 November \(a step: the days before are read at the new level\)$/,
        ),
      },
    ]);
  });
});
