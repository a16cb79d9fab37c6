/**
 * The report's flags, read and checked before any request: the period, the output and the thresholds.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { addDays, FLAG_NAMES, isoDay, parseBound, parsePeriod } from "../../provider/billing/periods";
import { type BudgetConfig, parseBudgetConfig } from "../../provider/budget";
import { isConfigError } from "../../provider/errors";
import { UsageError } from "../errors";

type Opts = Record<string, string | boolean | undefined>;

/** The report's default period: this many days, today included. */
export const DEFAULT_DAYS = 60;

/** The budget flags and the configuration field each sets. */
const BUDGET_FLAGS = {
  monthlyBudget: "--monthly-budget",
  minBalance: "--min-balance",
  minRunwayDays: "--min-runway-days",
  spikeFactor: "--spike-factor",
} as const;

/**
 * budgetFromFlags reads --monthly-budget, --min-balance, --min-runway-days and --spike-factor into a
 * budget configuration; a value that is not a number, or that the rules refuse, is a UsageError naming
 * the flag.
 */
export function budgetFromFlags(o: Opts): BudgetConfig {
  const config: Record<string, number | string> = {};
  if (typeof o["quantile"] === "string") config["quantile"] = o["quantile"];
  for (const [key, flag] of Object.entries(BUDGET_FLAGS)) {
    const v = o[key];
    if (v === undefined) continue;
    // decimal only: Number() would also read 0x10 as 16
    const n = typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : Number.NaN;
    if (!Number.isFinite(n))
      throw new UsageError(`${flag}: "${String(v)}" is not a number; e.g. ${flag} 40000`);
    config[key] = n;
  }
  try {
    parseBudgetConfig(config);
  } catch (e) {
    if (isConfigError(e)) {
      const flag =
        e.field === "quantile"
          ? "--quantile"
          : (BUDGET_FLAGS[e.field as keyof typeof BUDGET_FLAGS] ?? e.field);
      throw new UsageError(`${flag}: ${e.message.slice(e.field.length + 2)}`);
    }
    throw e;
  }
  return config as BudgetConfig;
}

/**
 * periodFromFlags reads --from and --to: --to defaults to today, --from to 59 days before --to (60
 * days in all). Bad dates name the flag.
 */
export function periodFromFlags(
  o: Opts,
  now: Date,
  asOf?: string,
): { from: string; to: string; maxPeriodDays?: number } {
  const given = (k: string) => (typeof o[k] === "string" ? (o[k] as string) : undefined);
  const maxRaw = given("maxPeriodDays");
  const maxPeriodDays = maxRaw === undefined ? undefined : Number(maxRaw);
  if (maxPeriodDays !== undefined && (!/^\d+$/.test(maxRaw ?? "") || maxPeriodDays < 1)) {
    throw new UsageError(`--max-period-days: "${maxRaw}" is not a whole number of 1 or more`);
  }
  // a replay as of a day ends the day before it: nothing of that day or later is read
  const to = given("to") ?? (asOf ? addDays(asOf, -1) : isoDay(now));
  if (asOf && isoDay(parseBound(to, FLAG_NAMES.to, FLAG_NAMES.accepted).at) >= asOf) {
    throw new UsageError(
      `--to: ${to} is not before --as-of ${asOf}; a replay reads nothing of its day or later (give --to ${addDays(asOf, -1)} or earlier, or leave it out)`,
    );
  }
  const from =
    given("from") ??
    addDays(isoDay(parseBound(to, FLAG_NAMES.to, FLAG_NAMES.accepted).at), -(DEFAULT_DAYS - 1));
  parsePeriod(from, to, { now, maxPeriodDays, names: FLAG_NAMES });
  return maxPeriodDays === undefined ? { from, to } : { from, to, maxPeriodDays };
}

/** htmlPathFromFlags resolves --html and checks that its folder exists. */
export function htmlPathFromFlags(o: Opts): string | undefined {
  const v = o["html"];
  if (v === undefined || v === false) return undefined;
  if (typeof v !== "string" || v.trim() === "")
    throw new UsageError("--html: give a file name, e.g. --html report.html");
  const path = resolve(v);
  const dir = dirname(path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new UsageError(`--html: the folder ${dir} does not exist; create it or choose another file`);
  }
  if (existsSync(path) && statSync(path).isDirectory()) {
    throw new UsageError(`--html: ${path} is a folder; give a file name, e.g. --html ${path}/report.html`);
  }
  return path;
}

/** formatFromFlags picks what goes to stdout: the terminal report, Markdown or JSON. */
export function formatFromFlags(o: Opts): "terminal" | "markdown" | "json" {
  if (o["json"] && o["markdown"]) throw new UsageError("--json and --markdown: choose one output format");
  return o["json"] ? "json" : o["markdown"] ? "markdown" : "terminal";
}
