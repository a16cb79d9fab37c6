/**
 * Budget configuration: thresholds, options and the level of each rule, validated with zod before any
 * rule runs. The schema is built inside a function (a module-level zod v4 schema breaks Pulumi's closure
 * serialization; see PULUMI-NOTES.md).
 */
import type { z } from "zod";
import { MAX_AMOUNT } from "../billing/money";
import { ConfigError, isZodWording } from "../errors";
import type { Assert, Exact } from "../exact";
import { perProcess } from "../once";
import { zod } from "../zod";
import { RULE_INFO } from "./rule-info";
import type { Level, RuleName } from "./types";

/** RULE_NAMES lists the budget rules in the order `evaluate` runs them. */
export const RULE_NAMES: readonly RuleName[] = Object.keys(RULE_INFO) as RuleName[];

/** DEFAULT_LEVELS is each rule's level when the configuration does not name one (its `defaultLevel`). */
export const DEFAULT_LEVELS: Readonly<Record<RuleName, Level>> = Object.fromEntries(
  RULE_NAMES.map((r) => [r, RULE_INFO[r].defaultLevel]),
) as Record<RuleName, Level>;

/** THRESHOLD_OF names the setting that turns each threshold rule on; daily-spike runs on its default factor. */
export const THRESHOLD_OF = {
  "min-balance": RULE_INFO["min-balance"].threshold,
  "monthly-budget": RULE_INFO["monthly-budget"].threshold,
  "min-runway-days": RULE_INFO["min-runway-days"].threshold,
} as const satisfies Partial<Record<RuleName, keyof BudgetConfig>>;

/** Every setting RULE_INFO names is a key of BudgetConfig (a compile-time check; rule-info.ts imports nothing of this file). */
type RuleSettings = {
  [R in RuleName]: (typeof RULE_INFO)[R] extends { readonly settings: readonly (infer S)[] } ? S : never;
}[RuleName];
const _ruleSettingsAreKnown: Assert<RuleSettings extends keyof BudgetConfig ? true : false> = true;
void _ruleSettingsAreKnown;

/** RULE_SETTINGS lists the settings each rule reads (the policy pack gives each policy these). */
export const RULE_SETTINGS: Readonly<Record<RuleName, readonly (keyof BudgetConfig)[]>> = Object.fromEntries(
  RULE_NAMES.map((r) => [r, RULE_INFO[r].settings]),
) as unknown as Record<RuleName, readonly (keyof BudgetConfig)[]>;

/**
 * configuredGates lists the threshold rules a configuration turns on: the threshold is set and the
 * rule is not disabled. Empty means the configuration gates nothing (daily-spike only advises by
 * default), and a gate that passes everything must not pass silently.
 *
 * @example configuredGates({ minBalance: 5000 }); // ["min-balance"]
 */
export function configuredGates(config: BudgetConfig): (keyof typeof THRESHOLD_OF)[] {
  return (Object.keys(THRESHOLD_OF) as (keyof typeof THRESHOLD_OF)[]).filter(
    (rule) => config[THRESHOLD_OF[rule]] !== undefined && config.levels?.[rule] !== "disabled",
  );
}

/**
 * mandatoryGates lists the rules that can give a verdict: level `mandatory` (as configured or by
 * default) and configured — a threshold rule with its threshold set, daily-spike always. Empty means
 * nothing can make the verdict pass or fail: the verdict would be `none` whatever the project spends.
 *
 * @example mandatoryGates({ minBalance: 5000, levels: { "min-balance": "advisory" } }); // []
 */
export function mandatoryGates(config: BudgetConfig): RuleName[] {
  return RULE_NAMES.filter(
    (rule) =>
      (config.levels?.[rule] ?? DEFAULT_LEVELS[rule]) === "mandatory" &&
      (rule === "daily-spike" || config[THRESHOLD_OF[rule]] !== undefined),
  );
}

/** A forecast quantile: half, 80 % or 90 % of outcomes at or under it. */
export type Quantile = "p50" | "p80" | "p90";
/** DEFAULT_QUANTILE is the quantile the forecast gates judge unless told: p80, as AWS Budgets' interval. */
export const DEFAULT_QUANTILE: Quantile = "p80";
/** DEFAULT_TRAILING_DAYS is how many full days the trailing daily average looks back over. */
export const DEFAULT_TRAILING_DAYS = 7;
/** DEFAULT_SPIKE_WINDOW_DAYS is how many days before the last full day the spike median covers. */
export const DEFAULT_SPIKE_WINDOW_DAYS = 14;
/** DEFAULT_SPIKE_FACTOR is how many times the median the last full day may reach before it is flagged. */
export const DEFAULT_SPIKE_FACTOR = 2;

/**
 * MAX_AMOUNT is the largest threshold amount accepted (a budget, a minimum balance, an increase): the
 * bound of every amount costgate reads, from the wire or from a user, 10^12 currency units. Past it a
 * figure is a typo, and doubles stop holding cents exactly.
 */
export { MAX_AMOUNT };
/** MAX_RUNWAY_DAYS is the largest `minRunwayDays` accepted: a million days (past it, a typo). */
export const MAX_RUNWAY_DAYS = 1_000_000;
/** MAX_SPIKE_FACTOR is the largest `spikeFactor` accepted: a day a thousand times the median. */
export const MAX_SPIKE_FACTOR = 1000;

/**
 * amountProblem says what is wrong with a threshold amount (more than {@link MAX_AMOUNT} either way,
 * more than 2 decimals, not finite), or undefined when it is a valid amount.
 *
 * @example amountProblem(1e20); // "is more than 1,000,000,000,000, the largest amount costgate takes ..."
 */
export function amountProblem(n: number, decimals = 2): string | undefined {
  if (!Number.isFinite(n)) return "must be a finite number";
  if (Math.abs(n) > MAX_AMOUNT)
    return "is more than 1,000,000,000,000, the largest amount costgate takes (a digit repeated?)";
  // String(n) is the shortest form that reads back as n: 45000.55, never 45000.550000000003
  const fraction = /\.(\d+)$/.exec(String(n))?.[1] ?? (/e-/.test(String(n)) ? "x".repeat(99) : "");
  if (fraction.length > decimals)
    return `has more than ${decimals} decimals; round it to cents, e.g. 45000.55`;
  return undefined;
}

const finite = () => zod().number({ error: "must be a finite number" });
const atLeast = (min: number) => finite().min(min, `must be ${min} or more`);
const amount = () =>
  atLeast(0)
    .max(MAX_AMOUNT, amountProblem(MAX_AMOUNT * 10) ?? "")
    // the JSON Schema says it too; the check below also catches what zod's float-tolerant test lets by
    .multipleOf(0.01, amountProblem(0.001) ?? "")
    .check((ctx) => {
      const problem = amountProblem(ctx.value);
      if (problem) ctx.issues.push({ code: "custom", message: problem, input: ctx.value });
    });
const wholeDays = (min: number, max: number) =>
  finite()
    .int("must be a whole number of days")
    .min(min, `must be at least ${min} days`)
    .max(max, `must be at most ${max} days`);

/**
 * budgetConfigSchema builds the zod schema of {@link BudgetConfig}: thresholds are 0 or more, day counts
 * are whole, unknown fields and rule names are refused. Defaults (levels, `includeBonuses: false`,
 * `forecast: true`, `trailingDays: 7`, `spikeWindowDays: 14`, `spikeFactor: 2`, `extraDailyCost: 0`)
 * are filled in the parsed output. Public callers use {@link parseBudgetConfig} and
 * {@link budgetConfigJsonSchema}; zod types stay out of the public declarations.
 * @internal
 */
function buildBudgetConfigSchema() {
  const z = zod();
  const level = z.enum(["mandatory", "advisory", "disabled"], {
    error: "must be one of mandatory, advisory, disabled",
  });
  return z
    .object({
      minBalance: amount().optional(),
      includeBonuses: z.boolean({ error: "must be true or false" }).default(false),
      monthlyBudget: amount().optional(),
      forecast: z.boolean({ error: "must be true or false" }).default(true),
      minRunwayDays: atLeast(0).max(MAX_RUNWAY_DAYS, `must be at most ${MAX_RUNWAY_DAYS} days`).optional(),
      spikeFactor: atLeast(1)
        .max(MAX_SPIKE_FACTOR, `must be at most ${MAX_SPIKE_FACTOR}`)
        .default(DEFAULT_SPIKE_FACTOR),
      spikeWindowDays: wholeDays(3, 366).default(DEFAULT_SPIKE_WINDOW_DAYS),
      trailingDays: wholeDays(1, 366).default(DEFAULT_TRAILING_DAYS),
      // a computed rate (a monthly price ÷ 30.4): any sign, any decimals, but a bounded magnitude
      extraDailyCost: finite()
        .min(-MAX_AMOUNT, "is less than -1,000,000,000,000")
        .max(MAX_AMOUNT, "is more than 1,000,000,000,000")
        .default(0),
      quantile: z.enum(["p50", "p80", "p90"], { error: "must be p50, p80 or p90" }).default(DEFAULT_QUANTILE),
      forecastMethod: z
        .enum(["model", "trailing-mean"], { error: "must be model or trailing-mean" })
        .default("model"),
      levels: z
        .object({
          "min-balance": level.default(RULE_INFO["min-balance"].defaultLevel),
          "monthly-budget": level.default(RULE_INFO["monthly-budget"].defaultLevel),
          "min-runway-days": level.default(RULE_INFO["min-runway-days"].defaultLevel),
          "daily-spike": level.default(RULE_INFO["daily-spike"].defaultLevel),
        })
        .strict()
        .prefault({}),
    })
    .strict();
}

/**
 * budgetConfigSchema builds a fresh schema (callers may convert or extend it); parsing uses one per process.
 * Public callers use {@link parseBudgetConfig}; zod types stay out of the public declarations.
 * @internal
 */
export function budgetConfigSchema() {
  return buildBudgetConfigSchema();
}

/**
 * BudgetConfig is what callers write; every field is optional. A rule whose threshold is not set is
 * `not-configured` (not judged); with no mandatory rule judged the verdict is `none`, never `pass`.
 *
 * Amounts (`minBalance`, `monthlyBudget`) are at most {@link MAX_AMOUNT} with at most 2 decimals.
 *
 * - `minBalance` (≥ 0) — min-balance: the balance must be at or above it.
 * - `includeBonuses` (default `false`) — min-balance and min-runway-days count the bonuses as money.
 * - `monthlyBudget` (≥ 0) — monthly-budget: the month's spend must fit in it.
 * - `forecast` (default `true`) — monthly-budget checks the month-end forecast; `false`: only the
 *   month-to-date spend.
 * - `minRunwayDays` (≥ 0) — min-runway-days: the balance must last at least this many days. A balance of
 *   0 or less fails even with `minRunwayDays: 0`.
 * - `spikeFactor` (≥ 1, default 2) — daily-spike flags a last full day above this many times the median.
 * - `spikeWindowDays` (3–366, default 14) — daily-spike takes the median over this many days before the
 *   last full day.
 * - `trailingDays` (1–366, default 7) — full days behind the trailing daily average.
 * - `quantile` (`p50`, `p80` or `p90`, default `p80`) — the forecast model's quantile monthly-budget and
 *   min-runway-days judge: with `p80` a gate fails when the month's spend has more than a 20 % chance of
 *   passing the budget (docs/FORECAST.md says why p80).
 * - `forecastMethod` (`model` or `trailing-mean`, default `model`) — `trailing-mean` judges the trailing
 *   daily average × days left instead of the model's quantile.
 * - `extraDailyCost` (any sign, default 0) — added to the trailing average for the forecast and the runway:
 *   the daily cost of a planned change (negative for deletions).
 * - `levels` — `Partial<Record<RuleName, Level>>`; unnamed rules keep {@link DEFAULT_LEVELS}.
 *
 * @example
 * const config: BudgetConfig = { minBalance: 20000, monthlyBudget: 50000, minRunwayDays: 14 };
 */
export interface BudgetConfig {
  minBalance?: number;
  includeBonuses?: boolean;
  monthlyBudget?: number;
  forecast?: boolean;
  minRunwayDays?: number;
  spikeFactor?: number;
  spikeWindowDays?: number;
  trailingDays?: number;
  extraDailyCost?: number;
  /**
   * The forecast model's quantile monthly-budget and min-runway-days judge (default `p80`): `p80` reads
   * "80 % likely to spend at most ...", `p50` is the median forecast, `p90` the cautious one.
   */
  quantile?: Quantile;
  /**
   * `model` (default): the gates judge the forecast model's `quantile`. `trailing-mean`: the trailing
   * daily average × days left, one number with no interval (the forecast before the model).
   */
  forecastMethod?: "model" | "trailing-mean";
  levels?: Partial<Record<RuleName, Level>>;
}

/** ResolvedBudgetConfig is a {@link BudgetConfig} after validation, with every default filled in. */
export interface ResolvedBudgetConfig {
  minBalance?: number;
  includeBonuses: boolean;
  monthlyBudget?: number;
  forecast: boolean;
  minRunwayDays?: number;
  spikeFactor: number;
  spikeWindowDays: number;
  trailingDays: number;
  extraDailyCost: number;
  quantile: Quantile;
  forecastMethod: "model" | "trailing-mean";
  levels: Record<RuleName, Level>;
}

type _SameConfig = [
  Assert<Exact<BudgetConfig, z.input<ReturnType<typeof budgetConfigSchema>>>>,
  Assert<Exact<ResolvedBudgetConfig, z.output<ReturnType<typeof budgetConfigSchema>>>>,
];

/**
 * SETTING_WORDS says what each setting of {@link BudgetConfig} does, in one sentence: the JSON Schemas
 * (the config file's, the policy pack's) carry it as the field's `description`.
 * @internal
 */
export const SETTING_WORDS: Readonly<Record<keyof BudgetConfig, string>> = {
  minBalance: "min-balance: the lowest balance allowed, in currency units.",
  includeBonuses: "Count bonuses as money for min-balance and min-runway-days (default false).",
  monthlyBudget: "monthly-budget: the month's spend, forecast to its end, must fit in this amount.",
  forecast:
    "monthly-budget judges the month-end forecast (default true); false: only the month-to-date spend.",
  minRunwayDays:
    "min-runway-days: the balance must last at least this many days at the forecast daily spend.",
  spikeFactor: "daily-spike flags a last full day above this many times the median (default 2).",
  spikeWindowDays: "daily-spike takes the median over this many days before the last full day (default 14).",
  trailingDays: "Full days behind the trailing daily average (default 7).",
  extraDailyCost:
    "A daily cost added to the forecast and the runway, e.g. of a planned change (negative for deletions; default 0).",
  quantile:
    "The forecast model's quantile monthly-budget and min-runway-days judge: p50, p80 (default) or p90.",
  forecastMethod:
    "model (default): judge the forecast model's quantile; trailing-mean: the trailing daily average times the days left.",
  levels: "The level of each rule (mandatory, advisory or disabled), e.g. { daily-spike: mandatory }.",
};

/**
 * describedProperties gives each property of a JSON Schema generated from {@link budgetConfigSchema}
 * its {@link SETTING_WORDS} description (zod has no words of its own for them).
 * @internal
 */
export function describedProperties(properties: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(properties)) {
    const words = Object.hasOwn(SETTING_WORDS, k) ? SETTING_WORDS[k as keyof BudgetConfig] : undefined;
    out[k] = words && v && typeof v === "object" ? { description: words, ...v } : v;
  }
  return out;
}

/**
 * budgetConfigJsonSchema is the JSON Schema (draft 2020-12) of {@link BudgetConfig} as callers write it:
 * for editors, for a policy pack's `configSchema`, or to validate a file before a run.
 *
 * @example
 * const schema = budgetConfigJsonSchema();
 * Object.keys(schema.properties); // ["minBalance", "includeBonuses", ...]
 */
export function budgetConfigJsonSchema(): { [key: string]: unknown; properties: Record<string, unknown> } {
  const schema = zod().toJSONSchema(budgetConfigSchema(), { io: "input" }) as {
    properties?: Record<string, unknown>;
  };
  return { ...schema, properties: describedProperties(schema.properties ?? {}) };
}

/**
 * zodToConfigError turns the first zod issue into a {@link ConfigError} naming the field
 * (`minBalance`, `levels.daily-spike`, `consumption.3.day`), or `root` when the value itself is wrong.
 * @internal
 */
export function zodToConfigError(err: z.ZodError, root: string): ConfigError {
  const issue = err.issues[0];
  if (!issue) return new ConfigError(root, "invalid");
  const path = issue.path.map(String);
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0] ?? "?";
    const where = path.length > 0 ? `${path.join(".")}.${key}` : key;
    return new ConfigError(where, "unknown field; check the spelling");
  }
  const field = path.length > 0 ? path.join(".") : root;
  const message = issue.code === "invalid_type" && path.length === 0 ? "must be an object" : ownWords(issue);
  return new ConfigError(field, message);
}

const TYPE_WORDS: Record<string, string> = {
  number: "a number",
  string: "a text",
  boolean: "true or false",
  object: "a mapping of fields",
  record: "a mapping of fields",
  array: "a list",
  int: "a whole number",
};

/** ownWords is an issue's message in costgate's words: the schema's own, or one built from the issue. */
function ownWords(issue: z.core.$ZodIssue): string {
  if (!isZodWording(issue.message)) return issue.message;
  if (issue.code === "invalid_type") return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
  if (issue.code === "invalid_value")
    return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  if (issue.code === "too_big") return `must be at most ${String(issue.maximum)}`;
  if (issue.code === "too_small") return `must be at least ${String(issue.minimum)}`;
  return "is not valid here; see the schema (schema/costgate-config.schema.json)";
}

/** BUDGET_KEYS are the settings of {@link BudgetConfig}, in the schema's order (a test holds them equal). @internal */
export const BUDGET_KEYS = Object.keys(SETTING_WORDS) as readonly (keyof BudgetConfig)[];

/** plainObject: an object of own string keys (no array, no class, no symbol key), as JSON and YAML give. @internal */
export function plainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && Object.getOwnPropertySymbols(v).length === 0;
}

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const between = (min: number, max: number) => (v: unknown) => isNumber(v) && v >= min && v <= max;
const wholeBetween = (min: number, max: number) => (v: unknown) =>
  Number.isInteger(v) && between(min, max)(v);
const isAmount = (v: unknown) => isNumber(v) && v >= 0 && amountProblem(v) === undefined;
const isBoolean = (v: unknown) => typeof v === "boolean";
const oneOf =
  (...words: string[]) =>
  (v: unknown) =>
    typeof v === "string" && words.includes(v);
const isLevel = oneOf("mandatory", "advisory", "disabled");

/**
 * SURELY_VALID says, per setting, what the budget schema surely accepts (a subset of it; test/hostile/perf.test.ts
 * holds the two side by side): a configuration all of whose settings pass is read without zod (~60 ms to
 * load); anything else goes to the schema, which refuses it naming the field, or lets it through.
 */
const SURELY_VALID: Readonly<Record<keyof BudgetConfig, (v: unknown) => boolean>> = {
  minBalance: isAmount,
  includeBonuses: isBoolean,
  monthlyBudget: isAmount,
  forecast: isBoolean,
  minRunwayDays: between(0, MAX_RUNWAY_DAYS),
  spikeFactor: between(1, MAX_SPIKE_FACTOR),
  spikeWindowDays: wholeBetween(3, 366),
  trailingDays: wholeBetween(1, 366),
  extraDailyCost: between(-MAX_AMOUNT, MAX_AMOUNT),
  quantile: oneOf("p50", "p80", "p90"),
  forecastMethod: oneOf("model", "trailing-mean"),
  levels: (v) =>
    plainObject(v) &&
    Object.keys(v).every((r) => Object.hasOwn(RULE_INFO, r) && r !== "__proto__" && isLevel(v[r])),
};

/**
 * budgetSettingsSurelyValid tells whether each own key of `o` not in `others` is a budget setting whose
 * value the schema surely accepts or is undefined (absent, to the schema). @internal
 */
export function budgetSettingsSurelyValid(
  o: Record<string, unknown>,
  others: (key: string) => boolean,
): boolean {
  for (const k of Object.keys(o)) {
    if (others(k)) continue;
    if (!Object.hasOwn(SURELY_VALID, k)) return false;
    // undefined is an absent setting to the schema (its default applies)
    if (o[k] !== undefined && !SURELY_VALID[k as keyof BudgetConfig](o[k])) return false;
  }
  return true;
}

const none = () => false;

/** withDefaults fills in the defaults of a surely-valid configuration, as the schema does. */
function withDefaults(c: Record<string, unknown>): ResolvedBudgetConfig {
  const levels = { ...DEFAULT_LEVELS, ...(c["levels"] as object | undefined) };
  const out: Record<string, unknown> = {
    includeBonuses: false,
    forecast: true,
    spikeFactor: DEFAULT_SPIKE_FACTOR,
    spikeWindowDays: DEFAULT_SPIKE_WINDOW_DAYS,
    trailingDays: DEFAULT_TRAILING_DAYS,
    extraDailyCost: 0,
    quantile: DEFAULT_QUANTILE,
    forecastMethod: "model",
  };
  for (const k of BUDGET_KEYS) if (c[k] !== undefined && k !== "levels") out[k] = c[k];
  out["levels"] = levels;
  return out as unknown as ResolvedBudgetConfig;
}

/**
 * parseBudgetConfig validates a configuration and fills in defaults. It throws a {@link ConfigError}
 * whose `field` names the first bad field: `minBalance: must be 0 or more`.
 *
 * @example
 * parseBudgetConfig({ minRunwayDays: 14, levels: { "daily-spike": "disabled" } }).trailingDays; // 7
 */
export function parseBudgetConfig(config: BudgetConfig | undefined = {}): ResolvedBudgetConfig {
  // surely valid: no zod; it is loaded only to name what is wrong (or to fill what this leaves to it)
  if (plainObject(config) && budgetSettingsSurelyValid(config, none)) return withDefaults(config);
  const parsed = perProcess(buildBudgetConfigSchema).safeParse(config);
  if (!parsed.success) throw zodToConfigError(parsed.error, "config");
  return parsed.data;
}
