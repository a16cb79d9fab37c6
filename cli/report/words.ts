/**
 * The wording and number formats the report's renderings share, so the terminal, HTML and Markdown
 * say the same thing.
 */
import { addDays } from "../../provider/billing/periods";
import { configuredGates } from "../../provider/budget/config";
import type { Finding } from "../../provider/budget/types";
import { money } from "../format";
import type { Report } from "./model";

/** dayLabel writes `YYYY-MM-DD` as `22 Nov` (UTC). */
export function dayLabel(day: string, withYear = false): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    ...(withYear ? { year: "numeric" } : {}),
    timeZone: "UTC",
  }).format(new Date(`${day}T00:00:00Z`));
}

/** monthLabel writes the month of `YYYY-MM-DD` as `Nov`, and `Jan 2027` in January (UTC). */
export function monthLabel(day: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    month: "short",
    ...(day.slice(5, 7) === "01" ? { year: "numeric" } : {}),
    timeZone: "UTC",
  }).format(new Date(`${day}T00:00:00Z`));
}

/** longDay writes `YYYY-MM-DD` as `30 November` (UTC). */
export function longDay(day: string): string {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** monthName writes the month of `YYYY-MM-DD` as `November` (UTC). */
export function monthName(day: string): string {
  return new Intl.DateTimeFormat("en-GB", { month: "long", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** percent writes a share as a whole percentage: `62%`. */
export function percent(part: number, whole: number): string {
  if (whole <= 0) return "–";
  return `${Math.round((part / whole) * 100)}%`;
}

/** axisNumber writes a chart label: whole numbers with separators, decimals only for small scales. */
export function axisNumber(value: number, scaleMax: number): string {
  const decimals = scaleMax >= 100 ? 0 : scaleMax >= 10 ? 1 : 2;
  return new Intl.NumberFormat("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
}

/** Summary is the report's headline figures, worded. */
export interface Summary {
  title: string;
  period: string;
  monthToDate: string;
  forecast: string;
  runway: string;
  verdict: string;
  allowance: string | undefined;
}

/** runwayText says how long the balance lasts, and until when. */
export function runwayText(r: Report): string {
  const days = r.evaluation.figures.runwayDays;
  const rate = r.forecast.dailyRate;
  if (days === null) return "no spend in the last full days: the balance does not run out";
  if (days === 0) return "none: the balance is used up";
  const until = addDays(r.forecast.today, Math.floor(days));
  return `${days.toFixed(1)} days at ${money(rate)}/day (to about ${dayLabel(until, true)})`;
}

/**
 * gated tells whether the report's configuration sets any threshold: without one every mandatory rule
 * is skipped, and the report gives no verdict rather than a PASS that means nothing.
 */
export function gated(r: Report): boolean {
  return configuredGates(r.config).length > 0;
}

/** summarize words the headline figures of a report. */
export function summarize(r: Report): Summary {
  const f = r.evaluation.figures;
  const budget = r.config.monthlyBudget;
  const month = monthName(r.forecast.today);
  const failed = r.evaluation.findings.filter((x) => x.status === "fail");
  const mandatoryFailed = failed.filter((x) => x.level === "mandatory").length;
  const verdict = !gated(r)
    ? "NO VERDICT: no budget threshold is set"
    : r.evaluation.verdict === "pass"
      ? failed.length > 0
        ? `PASS: no mandatory rule failed (${failed.length} advisory)`
        : "PASS: every configured rule passed"
      : `FAIL: ${mandatoryFailed} mandatory rule${mandatoryFailed === 1 ? "" : "s"} failed`;
  return {
    title: `Project ${r.projectId} (${r.product})`,
    period: `${r.from} to ${r.to} (${r.days.length} day${r.days.length === 1 ? "" : "s"})${r.currency ? `, amounts in ${r.currency}` : ""}`,
    monthToDate:
      budget === undefined
        ? `${money(f.monthToDate)} in ${month} to ${longDay(r.forecast.today)}`
        : `${money(f.monthToDate)} in ${month} to ${longDay(r.forecast.today)}, ${percent(f.monthToDate, budget)} of the ${money(budget)} budget`,
    forecast:
      budget === undefined
        ? `${money(f.forecastMonthEnd)} by ${longDay(r.forecast.monthEnd)} at ${money(r.forecast.dailyRate)}/day`
        : `${money(f.forecastMonthEnd)} by ${longDay(r.forecast.monthEnd)} at ${money(r.forecast.dailyRate)}/day, ${percent(f.forecastMonthEnd, budget)} of the budget`,
    runway: runwayText(r),
    verdict,
    allowance:
      r.allowanceToday === null || budget === undefined
        ? undefined
        : `${money(r.allowanceToday)}/day (${money(budget)} over the ${r.forecast.daysInMonth} days of ${month})`,
  };
}

/** statusWord is a finding's status in capitals: PASS, FAIL, SKIP. */
export function statusWord(f: Pick<Finding, "status">): string {
  return f.status.toUpperCase();
}
