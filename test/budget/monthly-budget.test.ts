import { describe, expect, it } from "vitest";
import type { BudgetConfig, BudgetInput, Status } from "../../provider/budget";
import { daily, daysBefore, finding, happy } from "./fixtures";

type Case = [string, Partial<BudgetInput>, BudgetConfig, Status, string];

const HAPPY = "Project 4242 spent 20,300.00 this month and is forecast to spend 29,300.00 by 30 November";

describe("monthly-budget", () => {
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
      "skip",
      "The monthly-budget rule is not configured for project 4242: set monthlyBudget to check it.",
    ],
  ];

  it.each(cases)("%s", (_name, change, config, status, message) => {
    const f = finding("monthly-budget", happy(change), config);
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
      dailyAverage: 2079.96,
      extraDailyCost: 0,
      dailyRate: 2079.96,
      daysLeft: 10,
      daysInMonth: 30,
      monthEnd: "2026-11-30",
    });
  });
});
