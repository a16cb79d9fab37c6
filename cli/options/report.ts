/**
 * The report's flags, read and checked before any request: the period and the output (the thresholds:
 * ./gate.ts).
 */
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parsePeriod } from "../../provider/billing/periods";
import { addDays, isoDay, parseBound } from "../../provider/calendar";
import { UsageError } from "../errors";
import { FLAG_NAMES } from "../period-flags";
import { type Flags, text, wholeNumber } from "./parse";

/** The report's default period: this many days, today included. */
export const DEFAULT_DAYS = 60;

/**
 * periodFromFlags reads --from and --to: --to defaults to today, --from to 59 days before --to (60
 * days in all). Bad dates name the flag.
 */
export function periodFromFlags(
  o: Flags,
  now: Date,
  asOf?: string,
): { from: string; to: string; maxPeriodDays?: number } {
  const given = (k: string) => text(o, k);
  const maxRaw = given("maxPeriodDays");
  const maxPeriodDays = maxRaw === undefined ? undefined : wholeNumber(maxRaw, "--max-period-days");
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
export function htmlPathFromFlags(o: Flags): string | undefined {
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
export function formatFromFlags(o: Flags): "terminal" | "markdown" | "json" {
  if (o["json"] && o["markdown"]) throw new UsageError("--json and --markdown: choose one output format");
  return o["json"] ? "json" : o["markdown"] ? "markdown" : "terminal";
}
