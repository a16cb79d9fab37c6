import { describe, expect, it } from "vitest";
import {
  type BudgetConfig,
  type BudgetInput,
  budgetRules,
  evaluate,
  RULE_NAMES,
} from "../../provider/budget";
import { ConfigError } from "../../provider/errors";
import { daily, happy } from "./fixtures";

const TODAY = "2026-11-21";

const ALL: BudgetConfig = { minBalance: 10000, monthlyBudget: 50000, minRunwayDays: 7 };
const statuses = (config: BudgetConfig, input = happy()) =>
  evaluate(input, config).findings.map((f) => `${f.rule}:${f.level}:${f.status}`);

describe("evaluate", () => {
  it("passes the happy path and reports every figure", () => {
    const result = evaluate(happy(), ALL);
    expect(result.verdict).toBe("pass");
    expect(result.projectId).toBe(4242);
    expect(result.findings.map((f) => f.rule)).toEqual([...RULE_NAMES]);
    expect(result.figures).toEqual({
      balance: 12400,
      bonuses: 0,
      monthToDate: 20300,
      // the gates' quantile, p80 by default
      forecastMonthEnd: result.figures.forecast.monthEnd?.p80,
      dailyAverage: 1000,
      extraDailyCost: 0,
      runwayDays: 12.6, // from now: the rest of today costs less than a whole day
      lastFullDay: "2026-11-20",
      lastFullDayAmount: 1000,
      // the model also forecasts the rest of today (1,000.00 expected, 300.00 shown): 700.00 more than
      // the trailing mean's month end; 27 days give too few backtests at this horizon, so the intervals
      // come from the days' spread and confidence is low; p90 is at least what a project 27 days old moves over
      // the 10 days left (30 for the runway): p50 × (1 + 10 ÷ 37) (session 19, `youngAge`; before: 30,196, 12.5)
      forecast: {
        monthEnd: { p50: 30000, p80: expect.closeTo(30129, -1), p90: expect.closeTo(32622, -1) },
        runwayDays: { p50: 12.7, p80: 12.6, p90: 8.4 },
        method: "weekday-level",
        confidence: "low",
        historyDays: 27,
        backtests: 0,
        // a flat history: nothing moved the forecast
        reasons: [],
      },
    });
  });

  // A spike on the last full day (5,000.00 against 1,000.00) that passes every other rule.
  const spiky = happy({
    consumption: [...daily("2026-10-25", [...Array(26).fill(1000), 5000]), ...daily(TODAY, [300])],
  });

  type Case = [string, BudgetInput, BudgetConfig, string[], "pass" | "fail" | "none"];
  const cases: Case[] = [
    [
      "a mandatory failure fails the verdict",
      happy(),
      { ...ALL, minBalance: 20000 },
      ["min-balance:mandatory"],
      "fail",
    ],
    [
      "an advisory failure does not",
      happy(),
      { ...ALL, minBalance: 20000, levels: { "min-balance": "advisory" } },
      ["min-balance:advisory"],
      "pass",
    ],
    [
      "a disabled rule is not evaluated",
      happy(),
      { ...ALL, minBalance: 20000, levels: { "min-balance": "disabled" } },
      [],
      "pass",
    ],
    [
      "only advisory rules judged: no verdict (an advisory rule cannot fail it, so it cannot pass it)",
      happy(),
      { minBalance: 1, levels: { "min-balance": "advisory" } },
      [],
      "none",
    ],
    [
      "every rule disabled: no verdict",
      happy(),
      {
        ...ALL,
        levels: {
          "min-balance": "disabled",
          "monthly-budget": "disabled",
          "min-runway-days": "disabled",
          "daily-spike": "disabled",
        },
      },
      [],
      "none",
    ],
    [
      "a mandatory daily-spike with too little data is not judged: no verdict",
      happy({ consumption: daily("2026-11-19", [1000, 1000, 300]) }),
      { levels: { "daily-spike": "mandatory" } },
      [],
      "none",
    ],
    ["a spike is advisory by default", spiky, ALL, ["daily-spike:advisory"], "pass"],
    [
      "a mandatory spike fails the verdict",
      spiky,
      { ...ALL, levels: { "daily-spike": "mandatory" } },
      ["daily-spike:mandatory"],
      "fail",
    ],
    ["nothing configured: no verdict, never a pass", happy(), {}, [], "none"],
  ];

  it.each(cases)("%s", (_name, input, config, failing, verdict) => {
    const result = evaluate(input, config);
    expect(result.findings.filter((f) => f.status === "fail").map((f) => `${f.rule}:${f.level}`)).toEqual(
      failing,
    );
    expect(result.verdict).toBe(verdict);
  });

  it("gives each finding its level and status", () => {
    expect(statuses({ minBalance: 20000, levels: { "min-runway-days": "disabled" } })).toEqual([
      "min-balance:mandatory:fail",
      "monthly-budget:mandatory:not-configured",
      "min-runway-days:disabled:skip",
      "daily-spike:advisory:pass",
    ]);
    const disabled = evaluate(happy(), { levels: { "daily-spike": "disabled" } }).findings[3];
    expect(disabled?.message).toBe("The daily-spike rule is disabled for project 4242.");
  });

  it("sorts unsorted input and gives the same result", () => {
    const sorted = happy();
    const shuffled = happy({ consumption: [...sorted.consumption].reverse() });
    expect(evaluate(shuffled, ALL)).toEqual(evaluate(sorted, ALL));
  });

  it("applies an extra daily cost to the forecast and runway only", () => {
    const trailing = { ...ALL, extraDailyCost: 240, forecastMethod: "trailing-mean" } as const;
    expect(evaluate(happy(), trailing).figures).toMatchObject({
      monthToDate: 20300,
      forecastMonthEnd: 31460,
      dailyAverage: 1000,
      runwayDays: 10,
    });
    // the model: from now (09:30) to the month's end — 14.5 hours of today and 9 days — at 240.00 a day more,
    // on every quantile
    const before = evaluate(happy(), ALL).figures.forecast;
    const after = evaluate(happy(), { ...ALL, extraDailyCost: 240 }).figures;
    const extra = 240 * (9 + 14.5 / 24);
    expect(after.forecast.monthEnd?.p50).toBeCloseTo((before.monthEnd?.p50 ?? 0) + extra, 1);
    expect(after.forecast.monthEnd?.p90).toBeCloseTo((before.monthEnd?.p90 ?? 0) + extra, 1);
    expect(after.monthToDate).toBe(20300);
    expect(after.runwayDays).toBeLessThan(before.runwayDays?.p80 ?? 0);
  });

  it("returns plain JSON for no consumption yet (infinite runway is null)", () => {
    const result = evaluate(happy({ consumption: [] }), ALL);
    expect(result.figures).toMatchObject({ runwayDays: null, monthToDate: 0, lastFullDayAmount: 0 });
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it.each([
    [{ balance: Number.NaN }, /^balance: must be a finite number/],
    [{ projectId: 1.5 }, /^projectId: must be a whole number/],
    [{ now: new Date("nope") }, /^now: must be a valid Date/],
    [
      { consumption: [{ day: "2026-02-30", totalAmount: 1, totalBonuses: 0 }] },
      /^consumption\.0\.day: must be a day/,
    ],
    [
      { consumption: [{ day: "2026-11-01", totalAmount: "1", totalBonuses: 0 }] },
      /^consumption\.0\.totalAmount: /,
    ],
    // amounts beyond the wire's bounds: a history of days of 1e305 summed to Infinity and crashed big.js
    [{ balance: 1e13 }, /^balance: is beyond ±1e12; costgate reads amounts up to ±1e12/],
    [{ bonuses: -1e300 }, /^bonuses: is beyond ±1e12/],
    [
      { consumption: [{ day: "2026-11-01", totalAmount: 1e305, totalBonuses: 0 }] },
      /^consumption\.0\.totalAmount: is beyond ±1e12/,
    ],
    [
      { consumption: [{ day: "2026-11-01", totalAmount: 1, totalBonuses: -Number.MAX_VALUE }] },
      /^consumption\.0\.totalBonuses: is beyond ±1e12/,
    ],
  ])("refuses bad input %#", (change, message) => {
    expect(() => evaluate(happy(change as never), ALL)).toThrow(ConfigError);
    expect(() => evaluate(happy(change as never), ALL)).toThrow(message);
  });

  it("judges a history of days at the bounds (±1e12 each, 85 days) with finite figures", () => {
    const now = new Date("2026-11-20T12:00:00Z");
    for (const sign of [1, -1]) {
      const consumption = Array.from({ length: 86 }, (_, i) => ({
        day: new Date(now.getTime() - (85 - i) * 86_400_000).toISOString().slice(0, 10),
        totalAmount: sign * (i % 7 === 0 ? 1e12 : 0.9e12),
        totalBonuses: 0,
      }));
      const e = evaluate({ projectId: 1, balance: 1e12, bonuses: -1e12, consumption, now }, ALL);
      const { monthEnd } = e.figures.forecast;
      // (refunds every day: no forecast of spend, but no NaN either)
      if (sign > 0) expect(monthEnd).not.toBeNull();
      for (const q of [monthEnd?.p50, monthEnd?.p80, monthEnd?.p90, e.figures.monthToDate])
        if (q !== undefined) expect(Number.isFinite(q), `sign ${sign}: ${q}`).toBe(true);
    }
  });

  it("lists its rules with descriptions and default levels", () => {
    expect(budgetRules.map((r) => [r.name, r.defaultLevel])).toEqual([
      ["min-balance", "mandatory"],
      ["monthly-budget", "mandatory"],
      ["min-runway-days", "mandatory"],
      ["daily-spike", "advisory"],
    ]);
    for (const r of budgetRules) expect(r.description).toMatch(/^The project's .+\.$/);
  });
});
