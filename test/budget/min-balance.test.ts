import { describe, expect, it } from "vitest";
import type { BudgetConfig, BudgetInput, Status } from "../../provider/budget";
import { finding, happy } from "./fixtures";

type Case = [string, Partial<BudgetInput>, BudgetConfig, Status, string];

describe("min-balance", () => {
  const cases: Case[] = [
    [
      "below the minimum",
      {},
      { minBalance: 20000 },
      "fail",
      "Project 4242 has a balance of 12,400.00; the policy requires at least 20,000.00.",
    ],
    [
      "at the minimum",
      { balance: 20000 },
      { minBalance: 20000 },
      "pass",
      "Project 4242 has a balance of 20,000.00; the policy requires at least 20,000.00.",
    ],
    [
      "above the minimum",
      { balance: 1234567.891 },
      { minBalance: 0 },
      "pass",
      "Project 4242 has a balance of 1,234,567.89; the policy requires at least 0.00.",
    ],
    [
      "a negative balance",
      { balance: -250.5 },
      { minBalance: 0 },
      "fail",
      "Project 4242 has a balance of -250.50; the policy requires at least 0.00.",
    ],
    [
      "bonuses are not counted by default",
      { bonuses: 8000 },
      { minBalance: 20000 },
      "fail",
      "Project 4242 has a balance of 12,400.00; the policy requires at least 20,000.00.",
    ],
    [
      "bonuses counted with includeBonuses",
      { bonuses: 8000 },
      { minBalance: 20000, includeBonuses: true },
      "pass",
      "Project 4242 has a balance of 12,400.00 plus 8,000.00 in bonuses (20,400.00); the policy requires at least 20,000.00 including bonuses.",
    ],
    [
      "not configured",
      {},
      {},
      "not-configured",
      "The min-balance rule is not configured for project 4242: set minBalance to check it.",
    ],
  ];

  it.each(cases)("%s", (_name, change, config, status, message) => {
    const f = finding("min-balance", happy(change), config);
    expect({ level: f.level, status: f.status, message: f.message }).toEqual({
      level: "mandatory",
      status,
      message,
    });
  });

  it("adds balance and bonuses exactly", () => {
    const f = finding("min-balance", happy({ balance: 0.1, bonuses: 0.2 }), {
      minBalance: 0.3,
      includeBonuses: true,
    });
    expect(f.status).toBe("pass");
    expect(f.figures).toEqual({
      balance: 0.1,
      bonuses: 0.2,
      includeBonuses: true,
      available: 0.3,
      minBalance: 0.3,
    });
  });
});
