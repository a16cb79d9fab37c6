import { describe, expect, it } from "vitest";
import type { BudgetConfig, BudgetInput, Status } from "../../provider/budget";
import { daysBefore, finding, happy } from "./fixtures";

type Case = [string, Partial<BudgetInput>, BudgetConfig, Status, string];

const TODAY = "2026-11-21";

describe("min-runway-days", () => {
  const cases: Case[] = [
    [
      "the worked example",
      { balance: 12467.8, consumption: daysBefore(TODAY, Array(7).fill(1312.4)) },
      { minRunwayDays: 14 },
      "fail",
      "Project 4242 has 9.5 days of runway at 1,312.40/day; the policy requires 14.",
    ],
    [
      "enough runway",
      {},
      { minRunwayDays: 7 },
      "pass",
      "Project 4242 has 12.4 days of runway at 1,000.00/day; the policy requires 7.",
    ],
    [
      "exactly the minimum",
      {},
      { minRunwayDays: 12.4 },
      "pass",
      "Project 4242 has 12.4 days of runway at 1,000.00/day; the policy requires 12.4.",
    ],
    [
      "rounded down, never up to the minimum",
      { balance: 9990 },
      { minRunwayDays: 10 },
      "fail",
      "Project 4242 has 9.9 days of runway at 1,000.00/day; the policy requires 10.",
    ],
    [
      "bonuses counted with includeBonuses",
      { bonuses: 600 },
      { minRunwayDays: 13, includeBonuses: true },
      "pass",
      "Project 4242 has 13.0 days of runway at 1,000.00/day; the policy requires 13.",
    ],
    [
      "after a change adding 240.00/day",
      {},
      { minRunwayDays: 14, extraDailyCost: 240 },
      "fail",
      "Project 4242 has 10.0 days of runway at 1,240.00/day after a change adding 240.00/day; the policy requires 14.",
    ],
    [
      "zero spend: infinite runway",
      { consumption: daysBefore(TODAY, Array(10).fill(0)) },
      { minRunwayDays: 14 },
      "pass",
      "Project 4242 has no spend in the last 7 full days, so its balance of 12,400.00 does not run out; the policy requires 14.",
    ],
    [
      "no consumption yet",
      { consumption: [] },
      { minRunwayDays: 14 },
      "pass",
      "Project 4242 has no spend recorded before today, so its balance of 12,400.00 does not run out; the policy requires 14.",
    ],
    [
      "a deletion removing all the spend",
      {},
      { minRunwayDays: 14, extraDailyCost: -1000 },
      "pass",
      "Project 4242 has no spend after a change removing 1,000.00/day, so its balance of 12,400.00 does not run out; the policy requires 14.",
    ],
    [
      "a negative balance",
      { balance: -250 },
      { minRunwayDays: 14 },
      "fail",
      "Project 4242 has a balance of -250.00, so it has no runway left; the policy requires 14.",
    ],
    [
      "a zero balance with no spend still fails",
      { balance: 0, consumption: [] },
      { minRunwayDays: 0 },
      "fail",
      "Project 4242 has a balance of 0.00, so it has no runway left; the policy requires 0.",
    ],
    [
      "not configured",
      {},
      {},
      "skip",
      "The min-runway-days rule is not configured for project 4242: set minRunwayDays to check it.",
    ],
  ];

  it.each(cases)("%s", (_name, change, config, status, message) => {
    const f = finding("min-runway-days", happy(change), config);
    expect({ level: f.level, status: f.status, message: f.message }).toEqual({
      level: "mandatory",
      status,
      message,
    });
  });

  it("reports an infinite runway as null plus infinite: true, which survives JSON", () => {
    const f = finding("min-runway-days", happy({ consumption: [] }), { minRunwayDays: 14 });
    expect(f.figures).toMatchObject({ runwayDays: null, infinite: true, exhausted: false, dailyRate: 0 });
    expect(JSON.parse(JSON.stringify(f.figures))).toEqual(f.figures);
  });

  it("reports a spent balance as 0 days, exhausted", () => {
    const f = finding("min-runway-days", happy({ balance: -250 }), { minRunwayDays: 14 });
    expect(f.figures).toMatchObject({ runwayDays: 0, infinite: false, exhausted: true, available: -250 });
  });
});
