/**
 * The budget policies: one stack policy per rule of provider/budget, built from the rule (name,
 * sentence, default level, severity, remediation, the settings it reads), plus billing-available.
 * Each fetches billing data once per project per run and reports whole sentences with figures.
 */
import type { ReportViolation, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import {
  type BudgetConfig,
  type BudgetRule,
  budgetRules,
  cleanText,
  dailySpikeRule,
  evaluateData,
  type Finding,
  formatMoney,
  isConfigError,
  minBalanceRule,
  minRunwayDaysRule,
  monthlyBudgetRule,
  Pricer,
  parseRateCard,
  type RateCard,
  type RuleName,
} from "costgate/budget";
import {
  COMMON_DEFAULTS,
  type CommonConfig,
  type ProjectTarget,
  packProduct,
  policyConfigSchema,
  projectTargets,
  STACK_TAG,
} from "./config";
import { type ChangeCost, priceChange } from "./cost";
import { failures, jsonKey, perRun, policyStarts, projectData } from "./data";

/**
 * budgetConfigFor is the configuration one rule's policy evaluates: the settings the rule reads, this
 * rule mandatory and the others off, and the priced change's daily cost added to `extraDailyCost`.
 */
function budgetConfigFor(
  rule: BudgetRule,
  config: Record<string, unknown>,
  changeDailyCost = 0,
): BudgetConfig {
  const out: Record<string, unknown> = {};
  for (const k of rule.settings) if (config[k] !== undefined) out[k] = config[k];
  const levels = Object.fromEntries(budgetRules.map((r) => [r.name, r === rule ? "mandatory" : "disabled"]));
  const own = typeof out["extraDailyCost"] === "number" ? (out["extraDailyCost"] as number) : 0;
  const extraDailyCost =
    changeDailyCost === 0 ? out["extraDailyCost"] : Math.round((own + changeDailyCost) * 100) / 100;
  return { ...out, levels, ...(extraDailyCost === undefined ? {} : { extraDailyCost }) } as BudgetConfig;
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

/** How the pack is told what to check, for messages. */
const HOW =
  "in the policy pack config (pulumi preview --policy-pack-config FILE; `costgate policy-config` writes one)";

/**
 * targetsOrNone lists the projects to check. A policy that runs (its enforcement level is not
 * "disabled") with no project named anywhere reports it: a gate with nothing configured is not green.
 */
function targetsOrNone(
  args: StackValidationArgs,
  config: Record<string, unknown>,
  report: ReportViolation,
  threshold?: keyof BudgetConfig,
): ProjectTarget[] {
  try {
    return runTargets(args, config);
  } catch (e) {
    if (!isConfigError(e)) throw e;
    if (e.field !== "projectId") {
      report(`The policy config is not valid: ${e.message}. Fix it ${HOW}.`);
      return [];
    }
    report(
      `The policy is not configured: ${e.message}. Name the project (projectId, projects, the stack tag ${STACK_TAG} or COSTGATE_PROJECT_ID)${threshold ? ` and set ${threshold}` : ""} ${HOW}, or set this policy's enforcementLevel to "disabled".`,
    );
    return [];
  }
}

/**
 * unconfigured reports a project whose threshold for `rule` is not set: the policy runs, so it was
 * meant to check something. Returns true when it reported.
 */
function unconfigured(
  rule: RuleName,
  threshold: keyof BudgetConfig | undefined,
  target: ProjectTarget,
  report: ReportViolation,
): boolean {
  if (!threshold || target.config[threshold] !== undefined) return false;
  report(
    `The ${rule} policy is not configured for project ${target.projectId}: set ${threshold} ${HOW}, or set this policy's enforcementLevel to "disabled". A budget gate without a threshold would let every deployment through.`,
  );
  return true;
}

/**
 * runTargets is {@link projectTargets} once per run for each distinct config, stack tag and
 * environment: the policies of a run that share their project settings parse them once.
 */
function runTargets(args: StackValidationArgs, config: Record<string, unknown>): ProjectTarget[] {
  const tag = args.stackTags?.get(STACK_TAG);
  const key = jsonKey("targets", config, tag, process.env["COSTGATE_PROJECT_ID"]);
  return perRun(key, () => projectTargets(config, { stackTags: args.stackTags }));
}

/**
 * runPrices is the run's rate card and its remembered prices for the card a policy's config names, parsed
 * once per run for each distinct card; undefined when the config names none.
 */
function runPrices(rateCard: unknown): { card: RateCard; pricer: Pricer } | undefined {
  if (!rateCard) return undefined;
  return perRun(jsonKey("rateCard", rateCard), () => {
    const card = parseRateCard(rateCard, "rateCard");
    return { card, pricer: new Pricer(card) };
  });
}

/** withDefaults applies the common settings' defaults (the SDK does not fill configSchema defaults). */
function withDefaults(config: CommonConfig) {
  return {
    product: packProduct(config),
    onError: config.onBillingError ?? COMMON_DEFAULTS.onBillingError,
    timeout: config.timeoutSeconds ?? COMMON_DEFAULTS.timeoutSeconds,
    historyDays: config.historyDays,
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

/**
 * inCurrency ends a message with the currency its amounts are in, when the config names one (the
 * billing API does not say).
 */
function inCurrency(message: string, currency: unknown): string {
  return typeof currency === "string" && currency !== "" ? `${message} Amounts are in ${currency}.` : message;
}

/** validateRule is the validateStack of one rule's policy; `order` is its place in the pack. */
function validateRule(rule: BudgetRule, priced: boolean, order: number) {
  return async (args: StackValidationArgs, dirty: ReportViolation): Promise<void> => {
    policyStarts(order);
    const report = cleanReport(dirty);
    const config = args.getConfig<CommonConfig & Record<string, unknown>>();
    const { product, onError, timeout, historyDays } = withDefaults(config);
    let cost: ReturnType<typeof priceChange> | undefined;
    try {
      const prices = priced ? runPrices(config.rateCard) : undefined;
      cost = priced ? priceChange(args.resources, prices?.card, prices?.pricer) : undefined;
    } catch (e) {
      if (!isConfigError(e)) throw e;
      report(`The ${rule.name} policy's rate card is not valid: ${e.message}. Fix it in the policy config.`);
      return;
    }
    const targets = targetsOrNone(args, config, report, rule.threshold);
    for (const target of targets) {
      if (unconfigured(rule.name, rule.threshold, target, report)) continue;
      const data = await projectData(target.projectId, product, timeout, target.config, historyDays);
      if (!data.ok) {
        if (onError === "fail") {
          report(
            `Project ${target.projectId} could not be checked because billing could not be read (${data.error}). The policy fails closed; set onBillingError to "advise" to let deployments continue while billing is unreachable.`,
          );
        }
        continue;
      }
      // the change judged; the project without it only when a failure's message quotes it
      const extra = cost?.addedPerDay ?? 0;
      const before = () =>
        evaluateData(data, target.projectId, data.now, budgetConfigFor(rule, target.config));
      const after =
        extra !== 0
          ? evaluateData(data, target.projectId, data.now, budgetConfigFor(rule, target.config, extra))
          : before();
      const finding = findingOf(after, rule.name);
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
        const was = extra !== 0 ? findingOf(before(), rule.name) : finding;
        message += ` ${describeChange(cost)} Before it: ${was?.message ?? "not judged"}`;
      }
      report(inCurrency(message, target.config["currency"]));
    }
  };
}

/**
 * rulePolicy builds a rule's policy from the rule itself: its name, sentence, default level, severity
 * and remediation (provider/budget/rule-info.ts), and a config schema of the settings it reads. A rule
 * that takes an extra daily cost (monthly-budget, min-runway-days) also prices the change.
 */
function rulePolicy(rule: BudgetRule): StackValidationPolicy {
  const priced = rule.settings.includes("extraDailyCost");
  return {
    name: rule.name,
    description: rule.description,
    enforcementLevel: rule.defaultLevel,
    severity: rule.severity,
    remediationSteps: `${rule.remediationSteps} Thresholds live in the policy config (costgate policy-config writes it from costgate.yaml).`,
    configSchema: policyConfigSchema(rule.settings, priced),
    validateStack: validateRule(rule, priced, budgetRules.indexOf(rule)),
  };
}

/** minBalance is the min-balance rule's policy: the project's balance stays at or above a floor. */
export const minBalance: StackValidationPolicy = rulePolicy(minBalanceRule);

/** monthlyBudget is the monthly-budget rule's policy: the month's spend, forecast to its end, fits the budget. */
export const monthlyBudget: StackValidationPolicy = rulePolicy(monthlyBudgetRule);

/** minRunwayDays is the min-runway-days rule's policy: the balance lasts a minimum of days at the forecast spend. */
export const minRunwayDays: StackValidationPolicy = rulePolicy(minRunwayDaysRule);

/** dailySpike is the daily-spike rule's policy: the last full day's spend is not far above the median. */
export const dailySpike: StackValidationPolicy = rulePolicy(dailySpikeRule);

/** billingAvailable: says when billing data could not be read, whatever the other policies do about it. */
export const billingAvailable: StackValidationPolicy = {
  name: "billing-available",
  description:
    "Warns when the billing endpoint cannot be read, so the budget policies could not check the project.",
  enforcementLevel: "advisory",
  severity: "medium",
  remediationSteps:
    "Check COSTGATE_BILLING_URL and COSTGATE_BILLING_TOKEN (a console access token, sent as X-User-Token) in the CI environment.",
  configSchema: policyConfigSchema([], false),
  validateStack: async (args, dirty) => {
    policyStarts(budgetRules.length);
    const report = cleanReport(dirty);
    // Runs last: the projects the other policies read are known, and so are their failures.
    const config = args.getConfig<CommonConfig & Record<string, unknown>>();
    const { product, timeout, historyDays } = withDefaults(config);
    let own: ProjectTarget[] = [];
    try {
      own = runTargets(args, config);
    } catch (e) {
      if (!isConfigError(e)) throw e;
    }
    for (const target of own) {
      await projectData(target.projectId, product, timeout, target.config, historyDays);
    }
    for (const f of await failures()) {
      report(
        `Billing for project ${f.key.split(":")[0]} could not be read, so its budget was not checked: ${f.error}`,
      );
    }
  },
};

/** budgetPolicies lists the pack's policies, in the order they run: one per rule, then billing-available. */
export const budgetPolicies: StackValidationPolicy[] = [
  minBalance,
  monthlyBudget,
  minRunwayDays,
  dailySpike,
  billingAvailable,
];
if (budgetPolicies.length !== budgetRules.length + 1)
  throw new Error("costgate: the pack lists a policy per budget rule; a rule was added without its policy");
