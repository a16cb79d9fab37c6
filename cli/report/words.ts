/**
 * The wording and number formats the report's renderings share, so the terminal, HTML and Markdown
 * say the same thing.
 */

import type { ProjectConsumption } from "../../provider/billing/results";
import { reasonText } from "../../provider/budget/reasons";
import type { Evaluation, Finding, ForecastFigures, Status, Verdict } from "../../provider/budget/types";
import { noVerdictReason } from "../../provider/budget/verdict";
import { addDays, dayInWords, monthInWords } from "../../provider/calendar";
import { formatMoney as money, numberFormat } from "../../provider/money";
import { cleanText } from "../../provider/text";
import { plural } from "../../provider/words";
import type { Report } from "./model";

/** formatDay writes `YYYY-MM-DD` with its month short (`22 Nov`) or long (`22 November`), and the year if asked (UTC). */
function formatDay(day: string, month: "short" | "long", withYear: boolean): string {
  return dayInWords(day, month, withYear);
}

/** dayLabel writes `YYYY-MM-DD` as `22 Nov` (UTC). */
export function dayLabel(day: string, withYear = false): string {
  return formatDay(day, "short", withYear);
}

/** monthLabel writes the month of `YYYY-MM-DD` as `Nov`, and `Jan 2027` in January (UTC). */
export function monthLabel(day: string): string {
  return monthInWords(day, "short", day.slice(5, 7) === "01");
}

/** longDay writes `YYYY-MM-DD` as `30 November`, or `30 November 2026` with the year (UTC). */
export function longDay(day: string, withYear = false): string {
  return formatDay(day, "long", withYear);
}

/** monthName writes the month of `YYYY-MM-DD` as `November` (UTC). */
export function monthName(day: string): string {
  return monthInWords(day, "long");
}

/** percent writes a share as a whole percentage, in the style of every other percentage costgate writes ("80 % likely"): `62 %`. */
export function percent(part: number, whole: number): string {
  if (whole <= 0) return "–";
  return `${Math.round((part / whole) * 100)} %`;
}

/** axisNumber writes a chart label: whole numbers with separators, decimals only for small scales. */
export function axisNumber(value: number, scaleMax: number): string {
  const decimals = scaleMax >= 100 ? 0 : scaleMax >= 10 ? 1 : 2;
  return numberFormat("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(
    value,
  );
}

/** Summary is the report's headline figures, worded. */
export interface Summary {
  title: string;
  period: string;
  monthToDate: string;
  forecast: string;
  /** How the forecast was made, in words: method, history and confidence. */
  method: string;
  runway: string;
  verdict: string;
  allowance: string | undefined;
}

/** balanceText is the balance and bonuses, or why a replay has none. */
export function balanceText(r: Report): string {
  if (r.asOf) return `not read: the billing API gives only today's, and this is a replay as of ${r.asOf}`;
  return `${money(r.balance.balance)}   bonuses ${money(r.balance.bonuses)}`;
}

/**
 * runwayText says how long the balance lasts, and until when: with the forecast model a range, from the
 * day it runs out at p90 spend (90 % likely not before) to the day at the median spend.
 */
export function runwayText(r: Report): string {
  const f = r.evaluation.figures;
  const days = f.runwayDays;
  if (r.asOf) return "not known in a replay (no balance read)";
  if (days === 0) return "none: the balance is used up";
  const q = r.config.forecastMethod === "model" ? f.forecast.runwayDays : null;
  if (q && q.p50 > 0 && q.p50 < 100000) {
    const early = addDays(r.forecast.today, Math.floor(q.p90));
    const median = addDays(r.forecast.today, Math.floor(q.p50));
    const range =
      q.p90 === q.p50 ? `${q.p50.toFixed(1)} days` : `${q.p90.toFixed(1)}–${q.p50.toFixed(1)} days`;
    const when =
      early === median
        ? `runs out about ${dayLabel(median, true)}`
        : `runs out between ${dayRange(early, median)}`;
    return `${range}: ${when} (90 % likely not before ${longDay(early)})`;
  }
  if (days === null) return "no spend in the last full days: the balance does not run out";
  const until = addDays(r.forecast.today, Math.floor(days));
  return `${days.toFixed(1)} days at ${money(r.forecast.dailyRate)}/day (to about ${dayLabel(until, true)})`;
}

/** dayRange writes two days as `14 and 19 December 2026`, or `28 December 2026 and 2 January 2027`. */
export function dayRange(a: string, b: string): string {
  if (a.slice(0, 7) === b.slice(0, 7)) return `${Number(a.slice(8, 10))} and ${longDay(b, true)}`;
  return `${longDay(a, a.slice(0, 4) !== b.slice(0, 4))} and ${longDay(b, true)}`;
}

/** methodText says how the month's forecast was made, and how far to trust it. */
export function methodText(r: Report): string {
  if (r.config.forecastMethod === "trailing-mean")
    return `the trailing ${r.config.trailingDays}-day mean × days left (forecastMethod: trailing-mean), no interval`;
  const m = r.evaluation.figures.forecast;
  const days = `${plural(m.historyDays, "day")} of history`;
  if (m.method === "none") return `no forecast yet: ${days}, 3 are needed`;
  const how = m.method === "run-rate" ? "a run-rate (under 2 weeks of history)" : "a weekday-aware level";
  const intervals =
    m.backtests > 0
      ? `intervals from ${m.backtests} backtests on that history`
      : "intervals from the days' spread (too few days to backtest)";
  return `${how} over ${days}; ${m.confidence} confidence; ${intervals}`;
}

/** forecastText words the month-end forecast: the median, and the 80 % and 90 % bounds. */
function forecastText(r: Report): string {
  const f = r.evaluation.figures;
  const budget = r.config.monthlyBudget;
  const by = `by ${longDay(r.forecast.monthEnd)}`;
  const q = r.config.forecastMethod === "model" ? f.forecast.monthEnd : null;
  const ofBudget = (v: number) => (budget === undefined ? "" : `, ${percent(v, budget)} of the budget`);
  if (q) {
    const judged =
      budget === undefined
        ? ""
        : `; the gate judges ${r.config.quantile}: ${percent(f.forecastMonthEnd, budget)} of the budget`;
    return `${money(q.p50)} ${by} (median); 80 % likely at most ${money(q.p80)}, 90 % at most ${money(q.p90)}${judged}`;
  }
  if (r.config.forecastMethod === "model") return `none yet; ${money(f.monthToDate)} spent so far`;
  return `${money(f.forecastMonthEnd)} ${by} at ${money(r.forecast.dailyRate)}/day${ofBudget(f.forecastMonthEnd)}`;
}

/**
 * gated tells whether the report has a verdict: at least one mandatory rule was judged. Without one
 * (no threshold, every mandatory rule disabled or not judged) the report says NO VERDICT, never PASS.
 */
export function gated(r: Report): boolean {
  return r.evaluation.verdict !== "none";
}

/** VERDICT_WORD is a verdict in capitals, the same in every output: PASS, FAIL, NO VERDICT. */
export const VERDICT_WORD: Readonly<Record<Verdict, string>> = {
  pass: "PASS",
  fail: "FAIL",
  none: "NO VERDICT",
};

/**
 * verdictSentence is an evaluation's verdict with its reason, the same in the terminal, HTML, Markdown,
 * `costgate check` and the step summary: "PASS: every configured rule passed", "FAIL: 1 mandatory rule
 * failed", "NO VERDICT: no budget threshold is set".
 */
export function verdictSentence(e: Pick<Evaluation, "findings" | "verdict">): string {
  const failed = e.findings.filter((x) => x.status === "fail");
  const mandatoryFailed = failed.filter((x) => x.level === "mandatory").length;
  if (e.verdict === "none") return `NO VERDICT: ${noVerdictReason(e)}`;
  if (e.verdict === "fail") return `FAIL: ${plural(mandatoryFailed, "mandatory rule")} failed`;
  return failed.length > 0
    ? `PASS: no mandatory rule failed (${failed.length} advisory)`
    : "PASS: every configured rule passed";
}

/** summarize words the headline figures of a report. */
export function summarize(r: Report): Summary {
  const f = r.evaluation.figures;
  const budget = r.config.monthlyBudget;
  const month = monthName(r.forecast.today);
  const verdict = verdictSentence(r.evaluation);
  return {
    title: `Project ${r.projectId} (${r.product})`,
    period: `${r.from} to ${r.to} (${r.days.length} day${r.days.length === 1 ? "" : "s"})${r.currency ? `, amounts in ${r.currency}` : ""}${
      r.asOf ? `; a replay as of ${r.asOf}: nothing of that day or later read, nor the balance` : ""
    }`,
    monthToDate:
      budget === undefined
        ? `${money(f.monthToDate)} in ${month} to ${longDay(r.forecast.today)}`
        : `${money(f.monthToDate)} in ${month} to ${longDay(r.forecast.today)}, ${percent(f.monthToDate, budget)} of the ${money(budget)} budget`,
    forecast: forecastText(r),
    method: methodText(r),
    runway: runwayText(r),
    verdict,
    allowance:
      r.allowanceToday === null || budget === undefined
        ? undefined
        : `${money(r.allowanceToday)}/day (${money(budget)} over the ${r.forecast.daysInMonth} days of ${month})`,
  };
}

/**
 * STATUS_WORD is a finding's status in capitals, the same in every output. A failed advisory rule reads
 * WARN (see {@link statusWord}); SKIP is only for a rule disabled on purpose.
 */
export const STATUS_WORD: Readonly<Record<Status, string>> = {
  pass: "PASS",
  fail: "FAIL",
  skip: "SKIP",
  "not-judged": "NOT JUDGED",
  "not-configured": "NOT SET",
};

/** statusWord is a finding's outcome in capitals: PASS, WARN (an advisory failure), FAIL, NOT JUDGED, NOT SET, SKIP. */
export function statusWord(f: Pick<Finding, "status" | "level">): string {
  return f.status === "fail" && f.level !== "mandatory" ? "WARN" : STATUS_WORD[f.status];
}

/** judged tells whether a finding was judged: passed, warned or failed. */
export function judged(f: Pick<Finding, "status">): boolean {
  return f.status === "pass" || f.status === "fail";
}

/**
 * dataNotes names the days the endpoint answered oddly, which the figures keep as they are: refunds
 * (negative days, which lower the total) and days answered in several items (summed into one).
 */
export function dataNotes(c: Pick<ProjectConsumption, "refundDays" | "mergedDays">): string[] {
  const notes: string[] = [];
  const refunds = c.refundDays ?? [];
  if (refunds.length > 0)
    notes.push(`${plural(refunds.length, "refund")} (negative, kept in the total): ${refunds.join(", ")}`);
  const merged = c.mergedDays ?? [];
  if (merged.length > 0)
    notes.push(
      `${plural(merged.length, "day")} answered twice, summed: ${merged.map((m) => (m.items > 2 ? `${m.day} (${m.items} items)` : m.day)).join(", ")}`,
    );
  return notes;
}

/** The most reasons a text output lists; the rest are counted ("and 3 more, in --json"). */
export const SHOWN_REASONS = 6;

/**
 * reasonTexts says why the forecast moved, one sentence a reason, as every output shows it: the model's
 * reasons (`evaluation.figures.forecast.reasons`) worded with the currency, cleaned like any other text
 * of the report. Empty when the model's forecast is not the one shown (`forecastMethod: trailing-mean`,
 * or no forecast yet). `max` bounds the list: the rest are counted in a last line.
 *
 * @example
 * reasonTexts(report.evaluation.figures.forecast, { currency: "EUR", today: "2026-11-22" });
 * // ["the level rose 18 % on 12 November (a step: the days before are read at the new level)"]
 */
export function reasonTexts(
  forecast: Pick<ForecastFigures, "reasons" | "monthEnd">,
  wording: { currency?: string | null | undefined; today?: string | undefined; max?: number } = {},
): string[] {
  if (!forecast.monthEnd) return [];
  const reasons = forecast.reasons ?? [];
  const max = wording.max ?? Number.POSITIVE_INFINITY;
  const shown = reasons.length > max ? reasons.slice(0, Math.max(0, max - 1)) : reasons;
  const texts = shown.map((r) => cleanText(reasonText(r, wording), { maxLength: 300 }));
  if (shown.length < reasons.length)
    texts.push(`and ${plural(reasons.length - shown.length, "more reason")} (see --json)`);
  return texts;
}

/** reportReasons is {@link reasonTexts} for a report: its currency, its today, and none with the trailing mean. */
export function reportReasons(r: Report, max = SHOWN_REASONS): string[] {
  if (r.config.forecastMethod !== "model") return [];
  return reasonTexts(r.evaluation.figures.forecast, { currency: r.currency, today: r.forecast.today, max });
}
