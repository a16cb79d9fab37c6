import { describe, expect, it } from "vitest";
import { allowanceOn, buildReport, daysInMonthOf } from "../../cli/report/model";
import { parseBudgetConfig } from "../../provider/budget";
import { checkPeriodStart } from "../../provider/check";
import { CONFIG, consumption, happyReport, NOW } from "./fixtures";

describe("buildReport", () => {
  it("lays out one day per day of the period and the forecast days to the month's end", () => {
    const r = happyReport();
    expect(r.days).toHaveLength(60);
    expect(r.days[0]).toMatchObject({ day: "2026-09-24", amount: 1000, allowance: 1000 });
    expect(r.days.at(-1)).toMatchObject({ day: "2026-11-22", amount: 400 });
    expect(r.forecastDays.map((d) => d.day)).toEqual([
      "2026-11-23",
      "2026-11-24",
      "2026-11-25",
      "2026-11-26",
      "2026-11-27",
      "2026-11-28",
      "2026-11-29",
      "2026-11-30",
    ]);
    // the model's median per day, under its 80 % and 90 % bounds
    for (const d of r.forecastDays) {
      expect(d.amount).toBeGreaterThan(0);
      expect(d.p80).toBeGreaterThanOrEqual(d.amount);
      expect(d.p90).toBeGreaterThanOrEqual(d.p80 ?? 0);
    }
    // with forecastMethod trailing-mean: the trailing rate, flat, no bounds
    const flat = happyReport({ config: { ...CONFIG, forecastMethod: "trailing-mean" } });
    expect(flat.forecastDays[0]).toMatchObject({ amount: flat.forecast.dailyRate, p80: null, p90: null });
    expect(r.allowanceToday).toBe(1000);
    expect(r.evaluation.findings.map((f) => f.rule)).toEqual([
      "min-balance",
      "monthly-budget",
      "min-runway-days",
      "daily-spike",
    ]);
  });

  it("has no forecast days when the period ends before today, and evaluates the given rules' data", () => {
    const r = buildReport({
      balance: { projectId: 4242, productId: 1, balance: 30000, bonuses: 0, fetchedAt: NOW.toISOString() },
      consumption: consumption(31, "2026-10-31"),
      evaluationItems: consumption(60).items,
      config: CONFIG,
      now: NOW,
    });
    expect(r.from).toBe("2026-10-01");
    expect(r.to).toBe("2026-10-31");
    expect(r.days).toHaveLength(31);
    expect(r.forecastDays).toEqual([]);
    expect(r.evaluation.figures.monthToDate).toBeGreaterThan(15000);
  });

  it("spreads the monthly budget over the days of each month", () => {
    expect(daysInMonthOf("2026-02-10")).toBe(28);
    expect(daysInMonthOf("2028-02-10")).toBe(29);
    expect(allowanceOn("2026-10-05", 31000)).toBe(1000);
    expect(allowanceOn("2026-11-05", 30000)).toBe(1000);
    expect(allowanceOn("2026-11-05", undefined)).toBeNull();
  });

  it("starts the rules' data 12 weeks and a day back (the forecast model's history), or further when a window asks", () => {
    const cfg = parseBudgetConfig({});
    expect(checkPeriodStart(new Date("2026-11-22T10:00:00Z"), cfg)).toBe("2026-08-29");
    expect(checkPeriodStart(new Date("2026-11-03T10:00:00Z"), cfg)).toBe("2026-08-10");
    expect(checkPeriodStart(new Date("2026-11-22T10:00:00Z"), parseBudgetConfig({ trailingDays: 90 }))).toBe(
      "2026-08-23",
    );
  });
});
