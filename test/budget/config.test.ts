import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type BudgetConfig, parseBudgetConfig } from "../../provider/budget";
import { budgetConfigSchema } from "../../provider/budget/config";
import { ConfigError } from "../../provider/errors";

describe("parseBudgetConfig", () => {
  it("fills in the defaults", () => {
    expect(parseBudgetConfig()).toEqual({
      includeBonuses: false,
      forecast: true,
      spikeFactor: 2,
      spikeWindowDays: 14,
      trailingDays: 7,
      extraDailyCost: 0,
      quantile: "p80",
      forecastMethod: "model",
      levels: {
        "min-balance": "mandatory",
        "monthly-budget": "mandatory",
        "min-runway-days": "mandatory",
        "daily-spike": "advisory",
      },
    });
    expect(parseBudgetConfig({ levels: { "daily-spike": "mandatory" } }).levels["daily-spike"]).toBe(
      "mandatory",
    );
  });

  it.each([
    [{ minBalance: -1 }, "minBalance", "minBalance: must be 0 or more"],
    [{ monthlyBudget: "50000" }, "monthlyBudget", "monthlyBudget: must be a finite number"],
    [{ minRunwayDays: Number.POSITIVE_INFINITY }, "minRunwayDays", "minRunwayDays: must be a finite number"],
    [{ spikeFactor: 0.5 }, "spikeFactor", "spikeFactor: must be 1 or more"],
    [{ spikeWindowDays: 2 }, "spikeWindowDays", "spikeWindowDays: must be at least 3 days"],
    [{ trailingDays: 400 }, "trailingDays", "trailingDays: must be at most 366 days"],
    [{ trailingDays: 1.5 }, "trailingDays", "trailingDays: must be a whole number of days"],
    [{ extraDailyCost: Number.NaN }, "extraDailyCost", "extraDailyCost: must be a finite number"],
    [{ forecast: "yes" }, "forecast", "forecast: must be true or false"],
    [
      { levels: { "daily-spike": "warn" } },
      "levels.daily-spike",
      "levels.daily-spike: must be one of mandatory, advisory, disabled",
    ],
    [
      { levels: { "max-spend": "advisory" } },
      "levels.max-spend",
      "levels.max-spend: unknown field; check the spelling",
    ],
    [{ minBalnce: 5 }, "minBalnce", "minBalnce: unknown field; check the spelling"],
    [null, "config", "config: must be an object"],
  ])("refuses %j", (config, field, message) => {
    try {
      parseBudgetConfig(config as BudgetConfig);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).field).toBe(field);
      expect((e as Error).message).toBe(message);
    }
  });

  it("builds a fresh schema that converts to JSON Schema for a policy pack", () => {
    expect(budgetConfigSchema()).not.toBe(budgetConfigSchema());
    const json = z.toJSONSchema(budgetConfigSchema(), { io: "input" }) as {
      properties: Record<string, unknown>;
    };
    expect(Object.keys(json.properties)).toContain("minRunwayDays");
    expect(json.properties.minBalance).toMatchObject({ type: "number", minimum: 0 });
  });
});
