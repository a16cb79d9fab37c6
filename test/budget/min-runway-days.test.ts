import { describe, expect, it } from "vitest";
import type { BudgetConfig, BudgetInput, Status } from "../../provider/budget";
import { evaluate } from "../../provider/budget";
import { daysBefore, finding, happy } from "./fixtures";

type Case = [string, Partial<BudgetInput>, BudgetConfig, Status, string];

const TODAY = "2026-11-21";

describe("min-runway-days with forecastMethod: trailing-mean (the forecast before the model)", () => {
  const TM = { forecastMethod: "trailing-mean" } as const;
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
      "not-configured",
      "The min-runway-days rule is not configured for project 4242: set minRunwayDays to check it.",
    ],
  ];

  it.each(cases)("%s", (_name, change, config, status, message) => {
    const f = finding("min-runway-days", happy(change), { ...TM, ...config });
    expect({ level: f.level, status: f.status, message: f.message }).toEqual({
      level: "mandatory",
      status,
      message,
    });
  });

  it("reports an infinite runway as null plus infinite: true, which survives JSON", () => {
    const f = finding("min-runway-days", happy({ consumption: [] }), { ...TM, minRunwayDays: 14 });
    expect(f.figures).toMatchObject({ runwayDays: null, infinite: true, exhausted: false, dailyRate: 0 });
    expect(JSON.parse(JSON.stringify(f.figures))).toEqual(f.figures);
  });

  it("reports a spent balance as 0 days, exhausted", () => {
    const f = finding("min-runway-days", happy({ balance: -250 }), { ...TM, minRunwayDays: 14 });
    expect(f.figures).toMatchObject({ runwayDays: 0, infinite: false, exhausted: true, available: -250 });
  });
});

describe("min-runway-days on the forecast model (the default)", () => {
  it("judges the runway at p80 spend: 80 % likely to last at least N days", () => {
    const e = evaluate(happy(), { minRunwayDays: 12 });
    const f = e.findings.find((x) => x.rule === "min-runway-days")!;
    const r = e.figures.forecast.runwayDays!;
    // more spend, fewer days: p90's runway is the shortest
    expect(r.p90).toBeLessThanOrEqual(r.p80);
    expect(r.p80).toBeLessThanOrEqual(r.p50);
    expect(e.figures.runwayDays).toBe(r.p80);
    expect(f.status).toBe("pass");
    expect(f.message).toBe(
      `Project 4242's balance of 12,400.00 is 80 % likely to last at least ${r.p80.toFixed(1)} days at its forecast spend; the policy requires 12 (low confidence: 27 days of history).`,
    );
  });

  it("fails a spent balance whatever the model says", () => {
    const f = finding("min-runway-days", happy({ balance: -1 }), { minRunwayDays: 0 });
    expect(f.status).toBe("fail");
    expect(f.figures).toMatchObject({ exhausted: true });
  });

  it("uses the trailing rate under 3 days of charges, and says there is no forecast yet", () => {
    const f = finding("min-runway-days", happy({ consumption: daysBefore(TODAY, [500, 500]) }), {
      minRunwayDays: 30,
    });
    expect(f.status).toBe("fail");
    expect(f.message).toBe(
      "Project 4242 has 24.8 days of runway at 500.00/day (no forecast yet: under 3 days of charges); the policy requires 30.",
    );
  });
});
