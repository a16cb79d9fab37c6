import { describe, expect, it } from "vitest";
import { type DailyCharge, type TrailingAverage, trailingAverage } from "../../provider/budget";
import { daily, daysBefore, NOW } from "./fixtures";

const TODAY = "2026-11-21";
const charge = (day: string, totalAmount: number): DailyCharge => ({ day, totalAmount, totalBonuses: 0 });

describe("trailingAverage", () => {
  const cases: Array<[string, DailyCharge[], number | undefined, Partial<TrailingAverage>]> = [
    ["no consumption yet", [], undefined, { average: 0, total: 0, days: 0, from: null, to: null }],
    ["only today's partial day", daily(TODAY, [500]), undefined, { average: 0, days: 0, from: null }],
    [
      "a steady 1,000.00 a day",
      daysBefore(TODAY, Array(30).fill(1000)),
      undefined,
      { average: 1000, total: 7000, days: 7, from: "2026-11-14", to: "2026-11-20" },
    ],
    ["zero spend", daysBefore(TODAY, Array(10).fill(0)), undefined, { average: 0, total: 0, days: 7 }],
    [
      "today's partial day is left out",
      [...daysBefore(TODAY, Array(7).fill(70)), ...daily(TODAY, [9999])],
      7,
      {
        average: 70,
      },
    ],
    [
      "gaps inside covered data count as 0",
      daysBefore(TODAY, [5, null, null, 700, null, 700, null, 700]),
      7,
      {
        average: 300,
        days: 7,
      },
    ],
    [
      "data starting 3 days ago: averaged over 3",
      daysBefore(TODAY, [100, 200, 300]),
      7,
      {
        average: 200,
        days: 3,
        from: "2026-11-18",
      },
    ],
    ["a first day followed by gaps", daysBefore(TODAY, [300, null, null]), 7, { average: 100, days: 3 }],
    ["trailingDays: 3", daysBefore(TODAY, [1, 1, 1, 1, 30, 60, 90]), 3, { average: 60, days: 3 }],
    ["exact decimal sums", daysBefore(TODAY, [0.1, 0.2]), 7, { total: 0.3, average: 0.15 }],
    ["rounded to cents", daysBefore(TODAY, [10, 0, 0]), 7, { total: 10, average: 3.33 }],
    [
      "unsorted, with a duplicate day, a future day ignored",
      [
        charge("2026-11-20", 100),
        charge("2026-11-18", 100),
        charge("2026-11-20", 50),
        charge("2026-11-25", 1e6),
      ],
      7,
      { total: 250, average: 83.33, days: 3, from: "2026-11-18" },
    ],
  ];

  it.each(cases)("%s", (_name, consumption, trailingDays, want) => {
    expect(trailingAverage({ consumption, now: NOW }, { trailingDays })).toMatchObject(want);
  });

  it.each([
    [0, /^trailingDays: must be at least 1 days/],
    [1.5, /^trailingDays: must be a whole number/],
  ])("refuses trailingDays %s", (trailingDays, message) => {
    expect(() => trailingAverage({ consumption: [], now: NOW }, { trailingDays })).toThrow(message);
  });
});
