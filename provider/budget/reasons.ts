/**
 * Why the forecast moved, in words: the model's reasons (provider/budget/model.ts `ForecastReason`) made
 * fit for JSON (a day as `YYYY-MM-DD`, ratios and amounts rounded) and said in one sentence each. Every
 * output — `check`, `check --json`, the report in the terminal, Markdown, HTML and JSON — words them here.
 */
import Big = require("big.js");

import { addDays, dayInWords, dayString } from "../calendar";
import type { ForecastReason } from "./model";
import { cents, formatMoney, formatNumber } from "./money";
import type { ForecastReasonFigure } from "./types";

/** Weekday names, 0 Sunday … 6 Saturday (provider/budget/model.ts `weekdayOf`). */
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** The most reasons an evaluation keeps: the latest, when the model gives more. */
export const MAX_REASONS = 20;

/** A reason as the figures hold it, before its words. */
export type ReasonFields = WithoutText<ForecastReasonFigure>;
type WithoutText<R> = R extends unknown ? Omit<R, "text"> : never;

/** How reasons are worded: amounts beside a currency, and the year named when it is not today's. */
export interface ReasonWording {
  /** The currency named after amounts (`EUR`); none when null or empty. */
  currency?: string | null | undefined;
  /** Today, `YYYY-MM-DD`: a day of another year is written with its year. */
  today?: string | undefined;
}

/** The most growth a day a `ramp` reason can say (the model's RAMP_MAX_GROWTH, e^0.05, rounded up). */
const RAMP_MOST = 1.052;
const ratioOk = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x) && x > 0;
const amountOk = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
/** A count of steps or bursts: a whole 2–100 (the model reads at least 2). */
const countOk = (x: unknown): x is number =>
  Number.isInteger(x) && (x as number) >= 2 && (x as number) <= 100;
const dayOk = (x: unknown, today: number): x is number =>
  typeof x === "number" && Number.isInteger(x) && x >= 0 && x <= today;

/**
 * reasonFieldsOf turns the model's reasons into figures: a day as `YYYY-MM-DD`, a ratio to 3 decimals, an
 * amount to cents. A reason that cannot be said truthfully is left out — an unknown kind, a ratio that is
 * not a positive finite number, a day that is not a whole day from 1970 to `today`, a day of the month
 * outside 1–31, a weekday that is not a whole 0–6 (or with a day of the month past the 7th), a `businessDay`
 * that is not `last` on the 26th–31st or `first` on the 1st–3rd (said as a plain day of the month), an amount that
 * is not finite or rounds to 0 — and at most {@link MAX_REASONS} are kept,
 * the latest.
 * @internal
 */
export function reasonFieldsOf(reasons: readonly ForecastReason[], today: number): ReasonFields[] {
  const out: ReasonFields[] = [];
  for (const r of Array.isArray(reasons) ? reasons : []) {
    if (typeof r !== "object" || r === null) continue;
    const ratio = (x: number) => new Big(x).round(3, Big.roundHalfUp).toNumber();
    switch (r.kind) {
      case "step":
      case "spike":
        if (dayOk(r.day, today) && ratioOk(r.ratio))
          out.push({ kind: r.kind, day: dayString(r.day), ratio: ratio(r.ratio) });
        break;
      case "delay":
        if (dayOk(r.day, today)) out.push({ kind: "delay", day: dayString(r.day) });
        break;
      case "step-trend":
        // (a ratio that rounds to 1 says no direction)
        if (countOk(r.steps) && ratioOk(r.ratio) && ratio(r.ratio) !== 1)
          out.push({ kind: "step-trend", steps: r.steps, ratio: ratio(r.ratio) });
        break;
      case "bursts":
        // (a mean day that is a positive amount of cents)
        if (countOk(r.bursts) && amountOk(r.daily) && cents(r.daily) > 0)
          out.push({ kind: "bursts", bursts: r.bursts, daily: cents(r.daily) });
        break;
      case "ramp":
        // (a whole count of days a young history holds, and a growth a day the model reads: over 1, at most
        // e^0.05 — RAMP_MAX_GROWTH — rounded)
        if (
          Number.isInteger(r.days) &&
          r.days >= 9 &&
          r.days <= 10_000 &&
          ratioOk(r.ratio) &&
          ratio(r.ratio) > 1 &&
          r.ratio <= RAMP_MOST
        )
          out.push({ kind: "ramp", days: r.days, ratio: ratio(r.ratio) });
        break;
      case "day-of-month":
        if (
          Number.isInteger(r.dayOfMonth) &&
          r.dayOfMonth >= 1 &&
          r.dayOfMonth <= 31 &&
          amountOk(r.amount) &&
          cents(r.amount) !== 0
        ) {
          // (a first <weekday> of the month: a whole weekday 0–6, next on one of the month's first 7 days)
          // (rolled: a day 29–31 billed on the next 1st after shorter months)
          // (businessDay: the month's last or first Monday–Friday, next on day dayOfMonth — the 26th–31st, the 1st–3rd)
          if (
            (r.businessDay === "last" && r.dayOfMonth >= 26) ||
            (r.businessDay === "first" && r.dayOfMonth <= 3)
          )
            out.push({
              kind: "day-of-month",
              dayOfMonth: r.dayOfMonth,
              amount: cents(r.amount),
              businessDay: r.businessDay,
            });
          else if (r.weekday === undefined)
            out.push({
              kind: "day-of-month",
              dayOfMonth: r.dayOfMonth,
              amount: cents(r.amount),
              ...(r.rolled === true && r.dayOfMonth >= 29 && { rolled: true }),
            });
          else if (Number.isInteger(r.weekday) && r.weekday >= 0 && r.weekday <= 6 && r.dayOfMonth <= 7)
            out.push({
              kind: "day-of-month",
              dayOfMonth: r.dayOfMonth,
              amount: cents(r.amount),
              weekday: r.weekday,
            });
        }
        break;
    }
  }
  return out.slice(-MAX_REASONS);
}

/**
 * reasonFiguresOf is {@link reasonFieldsOf} with each reason's words (no currency: the engine has none).
 * @internal
 */
export function reasonFiguresOf(reasons: readonly ForecastReason[], today: number): ForecastReasonFigure[] {
  const wording = { today: dayString(today) };
  return reasonFieldsOf(reasons, today).map(
    (r) => ({ ...r, text: reasonText(r, wording) }) as ForecastReasonFigure,
  );
}

/** The day written `12 November`, with its year when it is not today's year. */
function dayWords(day: string, today: string | undefined): string {
  return dayInWords(day, "long", today !== undefined && today.slice(0, 4) !== day.slice(0, 4));
}

/** ordinal writes 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 23rd, 31st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? "th" : n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th";
  return `${n}${suffix}`;
}

/** change words a ratio new ÷ old: "rose 18 %", "fell 20 %", "rose 2.5×", "changed under 1 %". */
function change(ratio: number): string {
  if (ratio >= 2) return `rose ${formatNumber(ratio, 1)}×`;
  const pct = Math.round(Math.abs(ratio - 1) * 100);
  if (pct === 0) return "changed under 1 %";
  return `${ratio > 1 ? "rose" : "fell"} ${pct} %`;
}

/**
 * reasonText says one reason in a sentence (no final stop):
 * - step: "the level rose 18 % on 12 November (a step: the days before are read at the new level)"
 * - day-of-month: "a charge of about 1,250.00 EUR recurs on the 1st of each month and is forecast there" (on
 *   "the last day of each month" for the 31st; the 29th and 30th fall on the last day of shorter months, or
 *   "(the next month's 1st after shorter months)" when `rolled`; "the
 *   first Monday of each month" with a `weekday`; "the last business day of each month (Monday–Friday; next on
 *   the 30th)" with `businessDay`)
 * - delay: "the charges of 3 November arrived with 4 November's (read as one delay, not a drop and a spike)"
 * - spike: "7 November was a one-off (3.2× a usual day), left out of the level"
 * - step-trend: "the level's last 4 steps went up, by about 15 % each: the median counts on the next ones as
 *   often as they came"
 * - bursts: "the level burst 3 times and came back to one base each time: the days ahead are forecast at the
 *   history's mean day, about 1,204.50"
 * - ramp: "the level rose through each third of its 23 days, about +3.1 % a day (a fleet still moving in): the
 *   median follows half of that growth"
 *
 * @example
 * reasonText({ kind: "step", day: "2026-11-12", ratio: 1.18 }); // "the level rose 18 % on 12 November (...)"
 */
export function reasonText(r: ReasonFields, wording: ReasonWording = {}): string {
  const unit = wording.currency ? ` ${wording.currency}` : "";
  switch (r.kind) {
    case "step":
      return `the level ${change(r.ratio)} on ${dayWords(r.day, wording.today)} (a step: the days before are read at the new level)`;
    case "day-of-month": {
      // (from the 29th on, a charge falls on the month's last day in shorter months; the 31st is that day)
      const when =
        r.businessDay !== undefined
          ? `the ${r.businessDay} business day of each month (Monday–Friday; next on the ${ordinal(r.dayOfMonth)})`
          : r.weekday !== undefined
            ? `the first ${WEEKDAYS[r.weekday] ?? "day"} of each month`
            : r.rolled === true && r.dayOfMonth >= 29
              ? `the ${ordinal(r.dayOfMonth)} of each month (the next month's 1st after shorter months)`
              : r.dayOfMonth >= 31
                ? "the last day of each month"
                : r.dayOfMonth >= 29
                  ? `the ${ordinal(r.dayOfMonth)} of each month (the last day in shorter months)`
                  : `the ${ordinal(r.dayOfMonth)} of each month`;
      return r.amount < 0
        ? `a credit of about ${formatMoney(-r.amount)}${unit} recurs on ${when} and is forecast there`
        : `a charge of about ${formatMoney(r.amount)}${unit} recurs on ${when} and is forecast there`;
    }
    case "delay": {
      const next = addDays(r.day, 1);
      return `the charges of ${dayWords(r.day, wording.today)} arrived with ${dayWords(next, wording.today)}'s (read as one delay, not a drop and a spike)`;
    }
    case "spike":
      return `${dayWords(r.day, wording.today)} was a one-off (${formatNumber(r.ratio, 1)}× a usual day), left out of the level`;
    case "step-trend": {
      const by =
        r.ratio >= 2
          ? `${formatNumber(r.ratio, 1)}×`
          : `about ${Math.max(1, Math.round(Math.abs(r.ratio - 1) * 100))} %`;
      return `the level's last ${r.steps} steps went ${r.ratio > 1 ? "up" : "down"}, by ${by} each: the median counts on the next ones as often as they came`;
    }
    case "ramp":
      return `the level rose through each third of its ${r.days} days, about +${formatNumber((r.ratio - 1) * 100, 1)} % a day (a fleet still moving in): the median follows half of that growth`;
    case "bursts":
      return `the level burst ${r.bursts} times and came back to one base each time: the days ahead are forecast at the history's mean day, about ${formatMoney(r.daily)}${unit}`;
  }
}
