import { describe, expect, it } from "vitest";
import { type DailyCharge, forecastMonthEnd, type MonthForecast } from "../../provider/budget";
import { daily, daysBefore, happy } from "./fixtures";

type Case = [string, string, DailyCharge[], number, Partial<MonthForecast>];

describe("forecastMonthEnd", () => {
  const cases: Case[] = [
    [
      "happy path",
      "2026-11-21T09:30:00Z",
      happy().consumption,
      0,
      {
        monthToDate: 20300,
        dailyRate: 1000,
        daysLeft: 9,
        forecast: 29300,
        monthEnd: "2026-11-30",
      },
    ],
    ["no consumption yet", "2026-11-21T09:30:00Z", [], 0, { monthToDate: 0, forecast: 0, dailyRate: 0 }],
    [
      "first day: month to date is today's partial day",
      "2026-12-01T08:00:00Z",
      [...daysBefore("2026-12-01", Array(10).fill(1000)), ...daily("2026-12-01", [250])],
      0,
      { monthToDate: 250, daysLeft: 30, forecast: 30250, today: "2026-12-01" },
    ],
    [
      "last day: 0 days left, forecast is the month to date",
      "2026-11-30T23:00:00Z",
      [...daily("2026-11-01", Array(30).fill(100))],
      0,
      { monthToDate: 3000, daysLeft: 0, forecast: 3000 },
    ],
    [
      "28-day February",
      "2026-02-20T12:00:00Z",
      daysBefore("2026-02-20", Array(19).fill(10)),
      0,
      {
        monthToDate: 190,
        daysLeft: 8,
        forecast: 270,
      },
    ],
    [
      "leap February 2028",
      "2028-02-20T12:00:00Z",
      daysBefore("2028-02-20", Array(19).fill(10)),
      0,
      {
        daysLeft: 9,
        forecast: 280,
        monthEnd: "2028-02-29",
      },
    ],
    [
      "31-day month",
      "2026-12-20T12:00:00Z",
      daysBefore("2026-12-20", Array(19).fill(10)),
      0,
      {
        daysLeft: 11,
        forecast: 300,
      },
    ],
    [
      "a change adding 48.00/day",
      "2026-11-21T09:30:00Z",
      happy().consumption,
      48,
      {
        monthToDate: 20300,
        dailyRate: 1048,
        forecast: 29732,
      },
    ],
    [
      "a deletion larger than the spend stops at 0/day",
      "2026-11-21T09:30:00Z",
      happy().consumption,
      -5000,
      {
        dailyRate: 0,
        forecast: 20300,
      },
    ],
    ["exact decimal sums", "2026-11-30T12:00:00Z", daily("2026-11-29", [0.1, 0.2]), 0, { monthToDate: 0.3 }],
  ];

  it.each(cases)("%s", (_name, now, consumption, extraDailyCost, want) => {
    expect(forecastMonthEnd({ consumption, now: new Date(now) }, { extraDailyCost })).toMatchObject(want);
  });
});
