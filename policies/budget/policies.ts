/**
 * The budget policies: one stack policy per rule of provider/budget, plus billing-available.
 * Each fetches billing data once per project per run and reports whole sentences with figures.
 */
import type {
  PolicyConfigSchema,
  ReportViolation,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import {
  type BudgetConfig,
  cleanText,
  evaluateData,
  type Finding,
  formatMoney,
  isConfigError,
  parseRateCard,
  RULE_SETTINGS,
  type RuleName,
} from "costgate/budget";
import {
  COMMON_DEFAULTS,
  type CommonConfig,
  commonProperties,
  type ProjectTarget,
  projectTargets,
} from "./config";
import { type ChangeCost, priceChange } from "./cost";
import { failures, projectData } from "./data";

const RULES: RuleName[] = ["min-balance", "monthly-budget", "min-runway-days", "daily-spike"];

function budgetConfigFor(rule: RuleName, config: Record<string, unknown>, extraDailyCost = 0): BudgetConfig {
  const out: Record<string, unknown> = {};
  for (const k of RULE_SETTINGS[rule]) if (config[k] !== undefined) out[k] = config[k];
  const levels = Object.fromEntries(RULES.map((r) => [r, r === rule ? "mandatory" : "disabled"]));
  return { ...out, levels, extraDailyCost } as BudgetConfig;
}

function describeChange(cost: ChangeCost): string {
  const n = cost.added.length;
  const unpriced = cost.unpriced.length
    ? ` (${cost.unpriced.length} not priced: ${cost.unpriced[0]?.reason})`
    : "";
  const what = cost.added.map((r) => r.what).join(", ");
  return `This change adds ${formatMoney(cost.addedPerDay)}/day for ${n} new resource${n === 1 ? "" : "s"}${n ? ` (${what})` : ""}${unpriced}.`;
}

function findingOf(evaluation: { findings: Finding[] }, rule: RuleName): Finding | undefined {
  return evaluation.findings.find((f) => f.rule === rule);
}

/** The threshold that turns a rule on; daily-spike runs on its default factor once a project is named. */
const THRESHOLD: Record<RuleName, keyof BudgetConfig | undefined> = {
  "min-balance": "minBalance",
  "monthly-budget": "monthlyBudget",
  "min-runway-days": "minRunwayDays",
  "daily-spike": undefined,
};

/** How the pack is told what to check, for messages. */
const HOW =
  "in the policy pack config (pulumi preview --policy-pack-config FILE; `costgate policy-config` writes one)";

/**
 * targetsOrNone lists the projects to check. A policy that runs (its enforcement level is not
 * "disabled") with no project named anywhere reports it: a gate with nothing configured is not green.
 */
function targetsOrNone(
  _args: StackValidationArgs,
  config: Record<string, unknown>,
  report: ReportViolation,
  threshold?: keyof BudgetConfig,
): ProjectTarget[] {
  try {
    return projectTargets(config);
  } catch (e) {
    if (!isConfigError(e)) throw e;
    report(
      `The policy is not configured: ${e.message}. Name the project (projectId, projects or COSTGATE_PROJECT_ID)${threshold ? ` and set ${threshold}` : ""} ${HOW}, or set this policy's enforcementLevel to "disabled".`,
    );
    return [];
  }
}

/**
 * unconfigured reports a project whose threshold for `rule` is not set: the policy runs, so it was
 * meant to check something. Returns true when it reported.
 */
function unconfigured(rule: RuleName, target: ProjectTarget, report: ReportViolation): boolean {
  const threshold = THRESHOLD[rule];
  if (!threshold || target.config[threshold] !== undefined) return false;
  report(
    `The ${rule} policy is not configured for project ${target.projectId}: set ${threshold} ${HOW}, or set this policy's enforcementLevel to "disabled". A budget gate without a threshold would let every deployment through.`,
  );
  return true;
}

/** withDefaults applies the common settings' defaults (the SDK does not fill configSchema defaults). */
function withDefaults(config: CommonConfig) {
  return {
    product: config.product ?? process.env["COSTGATE_PRODUCT"] ?? "openstack",
    onError: config.onBillingError ?? COMMON_DEFAULTS.onBillingError,
    timeout: config.timeoutSeconds ?? COMMON_DEFAULTS.timeoutSeconds,
  };
}

/** The longest diagnostic the pack reports, in characters. */
const DIAGNOSTIC_MAX = 4000;

/**
 * cleanReport wraps a policy's `report`: every diagnostic is one line without control characters or
 * a secret of the run, whatever it quotes (a billing error, a resource name, a rate card's field).
 */
function cleanReport(report: ReportViolation): ReportViolation {
  return (message, urn) => report(cleanText(message, { maxLength: DIAGNOSTIC_MAX }), urn);
}

/** validateRule is the validateStack of one rule's policy. */
function validateRule(rule: RuleName, priced: boolean) {
  return async (args: StackValidationArgs, dirty: ReportViolation): Promise<void> => {
    const report = cleanReport(dirty);
    const config = args.getConfig<CommonConfig & Record<string, unknown>>();
    const { product, onError, timeout } = withDefaults(config);
    let cost: ReturnType<typeof priceChange> | undefined;
    try {
      cost = priced
        ? priceChange(args.resources, config.rateCard && parseRateCard(config.rateCard, "rateCard"))
        : undefined;
    } catch (e) {
      if (!isConfigError(e)) throw e;
      report(`The ${rule} policy's rate card is not valid: ${e.message}. Fix it in the policy config.`);
      return;
    }
    const targets = targetsOrNone(args, config, report, THRESHOLD[rule]);
    for (const target of targets) {
      if (unconfigured(rule, target, report)) continue;
      const data = await projectData(target.projectId, product, timeout);
      if (!data.ok) {
        if (onError === "fail") {
          report(
            `Project ${target.projectId} could not be checked because billing could not be read (${data.error}). The policy fails closed; set onBillingError to "advise" to let deployments continue while billing is unreachable.`,
          );
        }
        continue;
      }
      const before = evaluateData(data, target.projectId, data.now, budgetConfigFor(rule, target.config));
      const extra = cost?.addedPerDay ?? 0;
      const after =
        extra !== 0
          ? evaluateData(data, target.projectId, data.now, budgetConfigFor(rule, target.config, extra))
          : before;
      const finding = findingOf(after, rule);
      if (finding?.status === "not-judged") {
        // configured but not judged (too little data): not a silent pass
        report(
          `${finding.message} The policy reports it rather than pass a deployment it did not judge; set this policy's enforcementLevel to "disabled" to turn it off.`,
        );
        continue;
      }
      if (finding?.status !== "fail") continue;
      let message = finding.message;
      if (cost && (extra !== 0 || cost.unpriced.length)) {
        const was = findingOf(before, rule);
        message += ` ${describeChange(cost)} Before it: ${was?.message ?? "not judged"}`;
      }
      report(message);
    }
  };
}

/** The trailing average's length, read by monthly-budget and min-runway-days. */
const TRAILING_DAYS = {
  type: "integer",
  minimum: 1,
  maximum: 366,
  default: 7,
  description: "Days of the trailing average.",
} as const;

const RULE_SCHEMA: Record<RuleName, PolicyConfigSchema["properties"]> = {
  "min-balance": {
    minBalance: { type: "number", minimum: 0, description: "The lowest balance allowed." },
    includeBonuses: { type: "boolean", default: false, description: "Count bonuses towards the balance." },
  },
  "monthly-budget": {
    monthlyBudget: {
      type: "number",
      minimum: 0,
      description: "Month-to-date spend plus forecast must fit this.",
    },
    forecast: {
      type: "boolean",
      default: true,
      description: "Check the forecast to month end, not only the actual.",
    },
    trailingDays: TRAILING_DAYS,
  },
  "min-runway-days": {
    minRunwayDays: {
      type: "number",
      minimum: 0,
      description: "Days the balance must last at the trailing average.",
    },
    includeBonuses: { type: "boolean", default: false, description: "Count bonuses towards the balance." },
    trailingDays: TRAILING_DAYS,
  },
  "daily-spike": {
    spikeFactor: {
      type: "number",
      minimum: 1,
      default: 2,
      description: "Flag yesterday above the median times this.",
    },
    spikeWindowDays: {
      type: "integer",
      minimum: 3,
      maximum: 366,
      default: 14,
      description: "Days of the median.",
    },
  },
};

function schema(rule: RuleName, priced: boolean): PolicyConfigSchema {
  return { properties: { ...commonProperties(priced), ...RULE_SCHEMA[rule] } };
}

/** minBalance: the project's balance stays at or above a floor. */
export const minBalance: StackValidationPolicy = {
  name: "min-balance",
  description: "Requires each configured project's balance to stay at or above a floor.",
  enforcementLevel: "mandatory",
  remediationSteps: "Top up the project's balance in the console, or lower minBalance in the policy config.",
  configSchema: schema("min-balance", false),
  validateStack: validateRule("min-balance", false),
};

/** monthlyBudget: month-to-date spend plus the forecast to month end fits the monthly budget. */
export const monthlyBudget: StackValidationPolicy = {
  name: "monthly-budget",
  description: "Requires month-to-date spend plus the forecast to month end to fit the monthly budget.",
  enforcementLevel: "mandatory",
  remediationSteps:
    "Remove or shrink resources to lower the daily spend, or raise monthlyBudget in the policy config after approval.",
  configSchema: schema("monthly-budget", true),
  validateStack: validateRule("monthly-budget", true),
};

/** minRunwayDays: the balance lasts at least this many days at the trailing daily average. */
export const minRunwayDays: StackValidationPolicy = {
  name: "min-runway-days",
  description: "Requires the project's balance to last a minimum number of days at the trailing daily spend.",
  enforcementLevel: "mandatory",
  remediationSteps: "Top up the project's balance, or lower the daily spend before deploying more resources.",
  configSchema: schema("min-runway-days", true),
  validateStack: validateRule("min-runway-days", true),
};

/** dailySpike: the last full day's spend is not far above the trailing median. */
export const dailySpike: StackValidationPolicy = {
  name: "daily-spike",
  description: "Warns when the last full day's spend is far above the trailing median.",
  enforcementLevel: "advisory",
  remediationSteps:
    "Look for resources started by mistake on that day in the project's usage report (costgate usage).",
  configSchema: schema("daily-spike", false),
  validateStack: validateRule("daily-spike", false),
};

/** billingAvailable: says when billing data could not be read, whatever the other policies do about it. */
export const billingAvailable: StackValidationPolicy = {
  name: "billing-available",
  description:
    "Warns when the billing endpoint cannot be read, so the budget policies could not check the project.",
  enforcementLevel: "advisory",
  remediationSteps:
    "Check COSTGATE_BILLING_URL and COSTGATE_BILLING_TOKEN (a console access token, sent as X-User-Token) in the CI environment.",
  configSchema: { properties: commonProperties(false) },
  validateStack: async (args, dirty) => {
    const report = cleanReport(dirty);
    // Runs last: the projects the other policies read are known, and so are their failures.
    const config = args.getConfig<CommonConfig & Record<string, unknown>>();
    const { product, timeout } = withDefaults(config);
    let own: ProjectTarget[] = [];
    try {
      own = projectTargets(config);
    } catch (e) {
      if (!isConfigError(e)) throw e;
    }
    for (const target of own) {
      await projectData(target.projectId, product, timeout);
    }
    for (const f of await failures()) {
      report(
        `Billing for project ${f.key.split(":")[0]} could not be read, so its budget was not checked: ${f.error}`,
      );
    }
  },
};

/** budgetPolicies lists the pack's policies, in the order they run. */
export const budgetPolicies: StackValidationPolicy[] = [
  minBalance,
  monthlyBudget,
  minRunwayDays,
  dailySpike,
  billingAvailable,
];
