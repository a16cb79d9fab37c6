/**
 * min-runway-days: the balance lasts at least `minRunwayDays` at the trailing daily rate.
 */
import { formatFixed1, formatMoney, formatNumber } from "./money";
import { type BudgetRule, changeNote, notConfigured, type RuleContext } from "./rule";
import type { Status } from "./types";

/**
 * minRunwayDaysRule passes when the runway (see `runwayDays`) is at least `minRunwayDays`, or infinite
 * (no spend). A balance of 0 or less always fails, whatever the threshold. It is skipped when
 * `minRunwayDays` is not set. Mandatory by default.
 */
export const minRunwayDaysRule: BudgetRule = {
  name: "min-runway-days",
  description: "The project's balance lasts a minimum number of days at its recent daily spend.",
  defaultLevel: "mandatory",
  check(ctx) {
    const { config, runway: r } = ctx;
    if (config.minRunwayDays === undefined) return notConfigured(ctx, "min-runway-days", "minRunwayDays");
    const min = config.minRunwayDays;
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

function describeRunway({ input, config, runway: r }: RuleContext): string {
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
  return `${who} has ${formatFixed1(r.days)} days of runway at ${rate}`;
}
