import { describe, expect, it } from "vitest";
import type { BudgetConfig, BudgetInput, Status } from "../../provider/budget";
import { evaluate } from "../../provider/budget";
import { formatMoney } from "../../provider/budget/money";
import { daily, daysBefore, finding, happy } from "./fixtures";

type Case = [string, Partial<BudgetInput>, BudgetConfig, Status, string];

const HAPPY = "Project 4242 spent 20,300.00 this month and is forecast to spend 29,300.00 by 30 November";

describe("monthly-budget with forecastMethod: trailing-mean (the forecast before the model)", () => {
  const TM = { forecastMethod: "trailing-mean" } as const;
  const cases: Case[] = [
    [
      "forecast within budget",
      {},
      { monthlyBudget: 50000 },
      "pass",
      `${HAPPY}; the monthly budget is 50,000.00.`,
    ],
    [
      "forecast exactly at budget",
      {},
      { monthlyBudget: 29300 },
      "pass",
      `${HAPPY}; the monthly budget is 29,300.00.`,
    ],
    [
      "forecast over budget, actual within",
      {},
      { monthlyBudget: 25000 },
      "fail",
      `${HAPPY}; the monthly budget is 25,000.00.`,
    ],
    [
      "forecast: false checks only the actual",
      {},
      { monthlyBudget: 25000, forecast: false },
      "pass",
      "Project 4242 spent 20,300.00 this month; the monthly budget is 25,000.00. It is forecast to spend 29,300.00 by 30 November, which the policy does not check.",
    ],
    [
      "forecast: false, actual over budget",
      {},
      { monthlyBudget: 20000, forecast: false },
      "fail",
      "Project 4242 spent 20,300.00 this month; the monthly budget is 20,000.00. It is forecast to spend 29,300.00 by 30 November, which the policy does not check.",
    ],
    [
      "after a change adding 400.00/day",
      {},
      { monthlyBudget: 32000, extraDailyCost: 400 },
      "fail",
      "Project 4242 spent 20,300.00 this month and is forecast to spend 32,900.00 by 30 November after a change adding 400.00/day; the monthly budget is 32,000.00.",
    ],
    [
      "after a deletion removing 500.00/day",
      {},
      { monthlyBudget: 25000, extraDailyCost: -500 },
      "pass",
      "Project 4242 spent 20,300.00 this month and is forecast to spend 24,800.00 by 30 November after a change removing 500.00/day; the monthly budget is 25,000.00.",
    ],
    [
      "no consumption yet",
      { consumption: [] },
      { monthlyBudget: 1 },
      "pass",
      "Project 4242 spent 0.00 this month and is forecast to spend 0.00 by 30 November; the monthly budget is 1.00.",
    ],
    [
      "last day of February 2028",
      { now: new Date("2028-02-29T20:00:00Z"), consumption: daily("2028-02-01", Array(29).fill(100)) },
      { monthlyBudget: 2900 },
      "pass",
      "Project 4242 spent 2,900.00 this month and is forecast to spend 2,900.00 by 29 February; the monthly budget is 2,900.00.",
    ],
    [
      "not configured",
      {},
      {},
      "not-configured",
      "The monthly-budget rule is not configured for project 4242: set monthlyBudget to check it.",
    ],
  ];

  it.each(cases)("%s", (_name, change, config, status, message) => {
    const f = finding("monthly-budget", happy(change), { ...TM, ...config });
    expect({ level: f.level, status: f.status, message: f.message }).toEqual({
      level: "mandatory",
      status,
      message,
    });
  });

  it("reports actual and forecast figures (the worked example)", () => {
    // 20 November: 12 days at 1,000.00, then 7 at 2,079.96, and 4,640.78 so far today; 10 days left.
    const consumption = [
      ...daily("2026-11-01", Array(12).fill(1000)),
      ...daysBefore("2026-11-20", Array(7).fill(2079.96)),
    ];
    consumption.push(...daily("2026-11-20", [4640.78]));
    const f = finding("monthly-budget", happy({ now: new Date("2026-11-20T15:00:00Z"), consumption }), {
      ...TM,
      monthlyBudget: 50000,
    });
    expect(f.status).toBe("fail");
    expect(f.message).toBe(
      "Project 4242 spent 31,200.50 this month and is forecast to spend 52,000.10 by 30 November; the monthly budget is 50,000.00.",
    );
    expect(f.figures).toEqual({
      monthToDate: 31200.5,
      forecastMonthEnd: 52000.1,
      monthlyBudget: 50000,
      forecastChecked: true,
      method: "trailing-mean",
      dailyAverage: 2079.96,
      extraDailyCost: 0,
      dailyRate: 2079.96,
      daysLeft: 10,
      daysInMonth: 30,
      monthEnd: "2026-11-30",
    });
  });
});

describe("monthly-budget on the forecast model (the default)", () => {
  // 8 weeks before 21 November: weekdays 1,000–1,100, weekends 200
  const weekly = daysBefore(
    "2026-11-21",
    Array.from({ length: 56 }, (_, i) => {
      const weekday = new Date(Date.UTC(2026, 10, 21 - 56 + i)).getUTCDay();
      return weekday === 0 || weekday === 6 ? 200 : 1000 + (i % 3) * 50;
    }),
  );

  it("judges p80 by default and says so: 80 % likely to spend at most X by the month's end", () => {
    const e = evaluate(happy({ consumption: weekly }), { monthlyBudget: 24000 });
    const f = e.findings.find((x) => x.rule === "monthly-budget")!;
    const q = e.figures.forecast.monthEnd!;
    expect(q.p50).toBeLessThanOrEqual(q.p80);
    expect(q.p80).toBeLessThanOrEqual(q.p90);
    expect(e.figures.forecastMonthEnd).toBe(q.p80);
    expect(f.message).toBe(
      `Project 4242 spent 16,750.00 this month and is 80 % likely to spend at most ${formatMoney(q.p80)} by 30 November; the monthly budget is 24,000.00.`,
    );
    expect(f.figures).toMatchObject({ quantile: "p80", forecastMonthEnd: q.p80, method: "weekday-level" });
    expect(e.figures.forecast).toMatchObject({
      method: "weekday-level",
      confidence: "normal",
      historyDays: 56,
    });
  });

  it("passes or fails on the quantile asked for: a budget between p50 and p90", () => {
    const q = evaluate(happy({ consumption: weekly }), {}).figures.forecast.monthEnd!;
    const between = Math.round((q.p50 + q.p90) / 2);
    expect(
      finding("monthly-budget", happy({ consumption: weekly }), { monthlyBudget: between, quantile: "p50" })
        .status,
    ).toBe("pass");
    const p90 = finding("monthly-budget", happy({ consumption: weekly }), {
      monthlyBudget: between,
      quantile: "p90",
    });
    expect(p90.status).toBe("fail");
    expect(p90.message).toContain("is 90 % likely to spend at most");
  });

  it("counts the rest of today: the weekday's expected spend less what today already shows", () => {
    // flat 1,000.00 a day, 300.00 so far today: today's rest is 700.00, then 9 days
    const e = evaluate(happy(), { monthlyBudget: 50000 });
    expect(e.figures.forecast.monthEnd?.p50).toBe(30000);
    expect(e.figures.monthToDate).toBe(20300);
  });

  it("says plainly there is no forecast under 3 days of charges, and checks the month to date", () => {
    const f = finding("monthly-budget", happy({ consumption: daysBefore("2026-11-21", [500, 500]) }), {
      monthlyBudget: 900,
    });
    expect(f.status).toBe("fail");
    expect(f.message).toBe(
      "Project 4242 spent 1,000.00 this month; with 2 full days of charges there is no forecast yet (3 are needed), so only the month to date is checked against the monthly budget of 900.00.",
    );
  });

  it("says no day was charged yet when every day billed zero, not '0 full days'", () => {
    const f = finding("monthly-budget", happy({ consumption: daysBefore("2026-11-21", Array(84).fill(0)) }), {
      monthlyBudget: 900,
    });
    expect(f.status).toBe("pass");
    expect(f.message).toBe(
      "Project 4242 spent 0.00 this month; with no day of charges there is no forecast yet (3 are needed), so only the month to date is checked against the monthly budget of 900.00.",
    );
  });

  it("marks a run-rate over under 2 weeks as low confidence", () => {
    const f = finding(
      "monthly-budget",
      happy({ consumption: daysBefore("2026-11-21", Array(9).fill(500)) }),
      {
        monthlyBudget: 16000,
      },
    );
    expect(f.message).toMatch(/\(low confidence: a run-rate over 9 days of history\)\.$/);
    expect(f.figures).toMatchObject({ method: "run-rate", confidence: "low", historyDays: 9 });
  });

  it("refuses a quantile it does not know, naming the field", () => {
    expect(() => evaluate(happy(), { quantile: "p95" as "p90" })).toThrow(
      /quantile.*must be p50, p80 or p90/,
    );
  });
});
