/**
 * The one door for options: every flag of the gate commands is read and checked here, before any
 * request, into typed options; the commands receive them and only orchestrate.
 *
 * Precedence, the same for every setting: the flag, then the config file (`--config`), then the
 * environment (`COSTGATE_PROJECT_ID`, `COSTGATE_PRODUCT`), then the default. Which projects and which
 * thresholds is answered by provider/budget/targets.ts; this file turns flags into its input.
 */

import type { ProductId } from "../../provider/billing/products";
import { parseProjectId, parseProjectIds } from "../../provider/billing/project-id";
import {
  amountProblem,
  type BudgetConfig,
  configuredGates,
  mandatoryGates,
  parseBudgetConfig,
  RULE_NAMES,
} from "../../provider/budget/config";
import { type CostgateConfig, readCostgateConfig } from "../../provider/budget/config-file";
import { resolveTargets, type Target } from "../../provider/budget/targets";
import type { Level, RuleName } from "../../provider/budget/types";
import { dayStart } from "../../provider/calendar";
import { isConfigError, settingName } from "../../provider/errors";
import { readDecimal } from "../../provider/numbers";
import { UsageError } from "../errors";
import { inputLimitFrom } from "../files";
import { CLI_NAMES } from "../names";
import { summaryPathFrom } from "../summary";
import { type EndpointOptions, endpointOptions } from "./billing";
import { decimal, type Flags, text } from "./parse";
import { formatFromFlags, htmlPathFromFlags, periodFromFlags } from "./report";

/** amount reads an amount of 0 or more, within the bounds of every amount (MAX_AMOUNT, cents). */
export function amount(v: unknown, flag: string): number {
  const n = readDecimal(v, { signed: false });
  if (n === undefined)
    throw new UsageError(`${flag}: "${String(v)}" is not an amount of 0 or more; e.g. ${flag} 500`);
  const problem = amountProblem(n);
  if (problem) throw new UsageError(`${flag}: "${String(v).trim()}" ${problem}`);
  return n;
}

/** day reads a day (`YYYY-MM-DD`, from 2000, not after today), e.g. --as-of. */
export function day(v: unknown, flag: string, now: Date): string {
  // required here: provider/check brings the billing client and the rules, which `cost` without a project never needs
  const { parseAsOf } = require("../../provider/check") as typeof import("../../provider/check");
  return parseAsOf(v, flag, now);
}

const LEVELS = ["mandatory", "advisory", "disabled"];

/** The budget settings read as decimals, each by its flag (cli/names.ts). */
const DECIMAL_SETTINGS = [
  "minBalance",
  "monthlyBudget",
  "minRunwayDays",
  "spikeFactor",
] as const satisfies readonly (keyof BudgetConfig)[];

/**
 * flagOf names the flag of a budget setting from the one table (cli/names.ts: `minBalance` →
 * `--min-balance`); `levels.x` is `--level x`, and a setting without a flag is named as it is spelled.
 */
export function flagOf(field: string): string {
  if (field.startsWith("levels.")) return `--level ${field.slice("levels.".length)}`;
  return settingName(CLI_NAMES, field, `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
}

/**
 * budgetFlags is the one reader of the budget flags (--min-balance, --monthly-budget, --min-runway-days,
 * --spike-factor, --include-bonuses, --quantile, --level rule=level) into a validated BudgetConfig; a bad
 * value is a UsageError naming the flag.
 */
export function budgetFlags(o: Flags): BudgetConfig {
  const levels: Partial<Record<RuleName, Level>> = {};
  const given = o["level"];
  for (const entry of Array.isArray(given) ? given : typeof given === "string" ? [given] : []) {
    const [rule = "", level = ""] = entry.split("=");
    if (!(RULE_NAMES as readonly string[]).includes(rule)) {
      throw new UsageError(
        `--level: "${rule}" is not a rule; the rules are ${RULE_NAMES.join(", ")} (e.g. --level daily-spike=mandatory)`,
      );
    }
    if (!LEVELS.includes(level)) {
      throw new UsageError(
        `--level: "${level}" is not a level for ${rule}; use mandatory, advisory or disabled (e.g. --level ${rule}=advisory)`,
      );
    }
    levels[rule as RuleName] = level as Level;
  }
  const config: Record<string, unknown> = {};
  for (const key of DECIMAL_SETTINGS) if (o[key] !== undefined) config[key] = decimal(o[key], flagOf(key));
  if (o["includeBonuses"] === true) config["includeBonuses"] = true;
  if (typeof o["quantile"] === "string") config["quantile"] = o["quantile"];
  if (Object.keys(levels).length > 0) config["levels"] = levels;
  try {
    parseBudgetConfig(config as BudgetConfig);
  } catch (e) {
    if (isConfigError(e)) throw new UsageError(`${flagOf(e.field)}: ${e.reason}`);
    throw e;
  }
  return config as BudgetConfig;
}

/**
 * requireGate refuses, before any request, a configuration that gates nothing: with no threshold set
 * (or every one disabled, or every one advisory) no mandatory rule can be judged and the gate would have
 * no verdict whatever the project spends.
 */
export function requireGate(config: BudgetConfig, projectId?: number): void {
  if (mandatoryGates(config).length > 0) return;
  const project = projectId === undefined ? "" : ` for project ${projectId}`;
  if (configuredGates(config).length > 0) {
    throw new UsageError(
      `no mandatory budget rule is set${project}: advisory rules warn but never gate, so the gate would have no verdict; make one mandatory (e.g. --level ${configuredGates(config)[0]}=mandatory)`,
    );
  }
  throw new UsageError(
    `no budget threshold is set${project}, so the gate would pass whatever the project spends: give at least one of --min-balance, --monthly-budget or --min-runway-days (or minBalance, monthlyBudget, minRunwayDays in --config)`,
  );
}

/** What the gate commands know of their targets, from --config, the flags and the environment. */
export interface TargetOptions {
  /** The config file, read and validated once; `configPath` is its name. */
  file?: CostgateConfig;
  configPath?: string;
  product: ProductId;
  /** The projects, each with its thresholds (the file's, then the flags'). */
  targets: Target[];
  /** The budget flags alone. */
  flags: BudgetConfig;
}

/**
 * targetOptions reads --config once, the budget flags, --project-id (a comma list) and --product, and
 * asks the one resolver (provider/budget/targets.ts) which projects with which thresholds. `one` names
 * what a single project is for (`report`): a file listing several is then refused unless --project-id
 * picks one. With `optional`, naming no project is not an error (`cost` without the budget rules).
 */
export function targetOptions(o: Flags, want: { one?: string; optional?: boolean } = {}): TargetOptions {
  const flags = budgetFlags(o);
  const configPath = text(o, "config");
  const file = configPath === undefined ? undefined : readCostgateConfig(configPath, inputLimitFrom(o));
  const ids = text(o, "projectId");
  const r = resolveTargets({
    file,
    overrides: flags,
    // one project wanted: "7,8" is not one project id (the message says so)
    projectIds:
      ids === undefined
        ? undefined
        : want.one
          ? [parseProjectId(ids, "--project-id")]
          : parseProjectIds(ids, "--project-id"),
    product: text(o, "product"),
    names: { product: "--product" },
  });
  const base = { ...(file ? { file, configPath } : {}), product: r.product, flags };
  if (r.targets.length === 0) {
    if (want.optional) return { ...base, targets: [] };
    if (file)
      throw new UsageError(
        `--config ${configPath}: names no project; add projectId (or projects) to it, or give --project-id or COSTGATE_PROJECT_ID`,
      );
    parseProjectId(undefined, "--project-id");
  }
  if (want.one && r.targets.length > 1) {
    if (r.projectsFrom === "file")
      throw new UsageError(
        `--config ${configPath}: lists ${r.targets.length} projects; name the one ${want.one} with --project-id`,
      );
    // COSTGATE_PROJECT_ID lists several where one is wanted
    parseProjectId(process.env["COSTGATE_PROJECT_ID"], "COSTGATE_PROJECT_ID");
  }
  return { ...base, targets: r.targets };
}

/** `costgate check`'s options. */
export interface CheckOptions extends TargetOptions {
  /** Projects checked at once (--concurrency, default 8). */
  concurrency: number;
  /** The replay's day (--as-of), when given. */
  asOf?: string;
  now: Date;
  /** Where the Markdown summary goes: --summary, else GITHUB_STEP_SUMMARY under GitHub Actions. */
  summary?: { path: string; flag: string };
  json: boolean;
  /** How to reach billing, and the run's one request cap (--max-requests). */
  endpoint: EndpointOptions;
}

/**
 * checkOptions reads every option of `costgate check` before any request: the targets (each must set a
 * mandatory gate), --concurrency, --as-of, --summary (or GITHUB_STEP_SUMMARY) and --json.
 */
export function checkOptions(o: Flags, now = new Date()): CheckOptions {
  const t = targetOptions(o);
  for (const { projectId, config } of t.targets)
    requireGate(config, t.targets.length > 1 ? projectId : undefined);
  // under GitHub Actions the step summary is where verdicts are read: used unless --summary names a file
  const flag = text(o, "summary") !== undefined ? "--summary" : "GITHUB_STEP_SUMMARY";
  const path = summaryPathFrom(
    text(o, "summary") ??
      (process.env["GITHUB_ACTIONS"] === "true" && process.env["GITHUB_STEP_SUMMARY"]
        ? process.env["GITHUB_STEP_SUMMARY"]
        : undefined),
    flag,
  );
  let concurrency = 8;
  if (o["concurrency"] !== undefined) {
    concurrency = decimal(o["concurrency"], "--concurrency", "8");
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new UsageError("--concurrency: must be a whole number, 1 or more");
  }
  const asOf = o["asOf"] === undefined ? undefined : day(o["asOf"], "--as-of", now);
  return {
    ...t,
    concurrency,
    ...(asOf ? { asOf } : {}),
    now,
    ...(path ? { summary: { path, flag } } : {}),
    json: o["json"] === true,
    endpoint: endpointOptions(o),
  };
}

/** `costgate report`'s options: one project, its period, the outputs. */
export interface ReportOptions extends TargetOptions {
  target: Target;
  period: { from: string; to: string; maxPeriodDays?: number };
  /** The report's clock: now, or 00:00 UTC of the --as-of day. */
  now: Date;
  asOf?: string;
  format: "terminal" | "markdown" | "json";
  /** --gate: exit as check does. */
  gate: boolean;
  html?: string;
  summary?: string;
  /** --currency, else the config file's. */
  currency?: string;
  /** How to reach billing, and the run's one request cap (--max-requests). */
  endpoint: EndpointOptions;
}

/** reportOptions reads every option of `costgate report` before any request. */
export function reportOptions(o: Flags, clock = new Date()): ReportOptions {
  const asOf = o["asOf"] === undefined ? undefined : day(o["asOf"], "--as-of", clock);
  // a replay runs at 00:00 UTC of its day
  const now = asOf ? dayStart(asOf) : clock;
  const format = formatFromFlags(o);
  const t = targetOptions(o, { one: "to report" });
  const target = t.targets[0] as Target;
  const period = periodFromFlags(o, now, asOf);
  const gate = o["gate"] === true;
  // asked for a verdict: a report with no threshold would be a green gate that checks nothing
  if (gate) requireGate(target.config);
  const html = htmlPathFromFlags(o);
  const summary = summaryPathFrom(text(o, "summary"));
  const currency = (text(o, "currency") ?? t.file?.currency)?.trim() || undefined;
  return {
    ...t,
    target,
    period,
    now,
    ...(asOf ? { asOf } : {}),
    format,
    gate,
    ...(html ? { html } : {}),
    ...(summary ? { summary } : {}),
    ...(currency ? { currency } : {}),
    endpoint: endpointOptions(o),
  };
}

/** `costgate policy-config`'s options. */
export interface PolicyConfigOptions {
  /** The costgate config file, read and validated. */
  file: CostgateConfig;
  /** --output: the file replaced whole, else standard output. */
  output?: string;
}

/** policyConfigOptions reads --config (required) and --output. */
export function policyConfigOptions(o: Flags): PolicyConfigOptions {
  const file = readCostgateConfig(text(o, "config") ?? "", inputLimitFrom(o));
  const output = text(o, "output");
  return output === undefined ? { file } : { file, output };
}
