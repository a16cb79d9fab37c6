/**
 * min-runway-days: the balance lasts at least `minRunwayDays` at the forecast model's spend.
 */
import { formatFixed1, formatMoney, formatNumber } from "./money";
import { type BudgetRule, changeNote, confidenceNote, notConfigured, type RuleContext } from "./rule";
import { RULE_INFO } from "./rule-info";
import type { Status } from "./types";

/**
 * minRunwayDaysRule passes when the runway at the forecast model's `quantile` (default p80: the balance is
 * 80 % likely to last at least that long) is at least `minRunwayDays`, or infinite (no spend). Under 3
 * days of charges the trailing rate is used, and said. A balance of 0 or less always fails, whatever the
 * threshold. It is `not-configured` when `minRunwayDays` is not set. Mandatory by default.
 */
export const minRunwayDaysRule: BudgetRule = {
  ...RULE_INFO["min-runway-days"],
  check(ctx) {
    const { config, runway: r } = ctx;
    if (config.minRunwayDays === undefined) return notConfigured(ctx, "min-runway-days", "minRunwayDays");
    const min = config.minRunwayDays;
    const q = config.quantile;
    const modelDays =
      r.exhausted || config.forecastMethod !== "model" ? undefined : ctx.model.runwayDays?.[q];
    if (modelDays !== undefined) {
      return {
        status: modelDays >= min ? "pass" : "fail",
        message:
          `Project ${ctx.input.projectId}'s balance of ${formatMoney(r.available)}${config.includeBonuses ? " including bonuses" : ""} ` +
          `is ${q.slice(1)} % likely to last at least ${formatFixed1(modelDays)} days at its forecast spend${changeNote(r.extraDailyCost)}; ` +
          `the policy requires ${formatNumber(min, 1)}${confidenceNote(ctx)}.`,
        figures: {
          runwayDays: modelDays,
          quantile: q,
          available: r.available,
          includeBonuses: config.includeBonuses,
          method: ctx.model.method,
          confidence: ctx.model.confidence,
          historyDays: ctx.model.historyDays,
          extraDailyCost: r.extraDailyCost,
          minRunwayDays: min,
        },
      };
    }
    let status: Status;
    if (r.exhausted) status = "fail";
    else if (r.infinite || r.days === null) status = "pass";
    else status = r.days >= min ? "pass" : "fail";
    return {
      status,
      message: `${describeRunway(ctx)}; the policy requires ${formatNumber(min, 1)}.`,
      figures: {
        runwayDays: r.days,
        infinite: r.infinite,
        exhausted: r.exhausted,
        available: r.available,
        includeBonuses: config.includeBonuses,
        dailyAverage: r.dailyAverage,
        extraDailyCost: r.extraDailyCost,
        dailyRate: r.dailyRate,
        averagedDays: r.averagedDays,
        minRunwayDays: min,
      },
    };
  },
};

function describeRunway({ input, config, runway: r, model }: RuleContext): string {
  const who = `Project ${input.projectId}`;
  const money = `${formatMoney(r.available)}${config.includeBonuses ? " including bonuses" : ""}`;
  if (r.exhausted) return `${who} has a balance of ${money}, so it has no runway left`;
  if (r.infinite || r.days === null) {
    let when: string;
    if (r.dailyAverage > 0) when = changeNote(r.extraDailyCost);
    else if (r.averagedDays === 0) when = " recorded before today";
    else if (r.averagedDays === 1) when = " in the last full day";
    else when = ` in the last ${r.averagedDays} full days`;
    return `${who} has no spend${when}, so its balance of ${money} does not run out`;
  }
  const rate = `${formatMoney(r.dailyRate)}/day${changeNote(r.extraDailyCost)}`;
  // no model forecast (under 3 days of charges): the trailing rate, said so
  const cold =
    config.forecastMethod === "model" && model.method === "none"
      ? " (no forecast yet: under 3 days of charges)"
      : "";
  return `${who} has ${formatFixed1(r.days)} days of runway at ${rate}${cold}`;
}
