/**
 * What each budget rule is, as data: its name, one sentence, its level unless configured otherwise, the
 * settings it reads, the threshold that turns it on, how grave a failure is and what to do about it.
 * The rule files add the check; the configuration's defaults, the CLI and the policy pack read these,
 * so nothing restates a rule's name, sentence or level by hand. No runtime imports: config.ts reads it.
 */
import type { Level, RuleName } from "./types";

/**
 * RuleInfo describes one budget rule without its check. `Setting` names the budget settings (the keys of
 * `BudgetConfig`; config.ts checks at compile time that every name here is one, so this file imports nothing
 * of it).
 *
 * @example RULE_INFO["min-balance"].defaultLevel; // "mandatory"
 */
export interface RuleInfo<Setting extends string = string> {
  readonly name: RuleName;
  /** One sentence, for a policy pack's policy list and `costgate check --help`. */
  readonly description: string;
  /** The level unless `levels` (or a policy's `enforcementLevel`) says otherwise. */
  readonly defaultLevel: Level;
  /** The setting that turns the rule on; daily-spike runs on its default factor. */
  readonly threshold?: Setting;
  /** The settings the rule reads (the pack gives each policy these). */
  readonly settings: readonly Setting[];
  /** How grave a failure is, in the policy SDK's words. */
  readonly severity: "low" | "medium" | "high" | "critical";
  /** What to do when the rule fails, in whole sentences. */
  readonly remediationSteps: string;
}

/** The forecast settings monthly-budget and min-runway-days read. */
const FORECAST_SETTINGS = ["trailingDays", "quantile", "forecastMethod", "extraDailyCost"] as const;

/** RULE_INFO is every budget rule as data, in the order `evaluate` runs them. */
export const RULE_INFO = {
  "min-balance": {
    name: "min-balance",
    description: "The project's balance stays at or above a minimum.",
    defaultLevel: "mandatory",
    threshold: "minBalance",
    settings: ["minBalance", "includeBonuses"],
    severity: "high",
    remediationSteps: "Top up the project's balance in the console, or lower minBalance after approval.",
  },
  "monthly-budget": {
    name: "monthly-budget",
    description: "The project's spend this month, forecast to the month's end, stays within a budget.",
    defaultLevel: "mandatory",
    threshold: "monthlyBudget",
    settings: ["monthlyBudget", "forecast", ...FORECAST_SETTINGS],
    severity: "high",
    remediationSteps:
      "Remove or shrink resources to lower the daily spend, or raise monthlyBudget after approval; `costgate report` shows what drives the forecast.",
  },
  "min-runway-days": {
    name: "min-runway-days",
    description: "The project's balance lasts a minimum number of days at its forecast daily spend.",
    defaultLevel: "mandatory",
    threshold: "minRunwayDays",
    settings: ["minRunwayDays", "includeBonuses", ...FORECAST_SETTINGS],
    severity: "high",
    remediationSteps:
      "Top up the project's balance, or lower the daily spend before deploying more resources.",
  },
  "daily-spike": {
    name: "daily-spike",
    description: "The project's last full day of spend is not a spike against its recent median.",
    defaultLevel: "advisory",
    settings: ["spikeFactor", "spikeWindowDays"],
    severity: "medium",
    remediationSteps:
      "Look for resources started by mistake on that day in the project's usage report (costgate usage).",
  },
} as const satisfies { readonly [R in RuleName]: RuleInfo & { readonly name: R } };

/** ruleInfo is one rule's {@link RuleInfo}, for the rule files. @internal */
export function ruleInfo<R extends RuleName>(name: R): (typeof RULE_INFO)[R] {
  return RULE_INFO[name];
}
