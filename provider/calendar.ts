/**
 * The calendar, the one module for days: UTC calendar days as `YYYY-MM-DD` text and as whole numbers
 * (days since 1970-01-01, so spans and gaps are plain subtraction), and days written in words. Every day
 * in costgate is a UTC day; nothing here reads the clock. provider/budget/days.ts re-exports from here;
 * provider/billing/periods.ts reads billing periods with it.
 */
import { ConfigError } from "./errors";
import { dateFormat } from "./money";

const MS_PER_DAY = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * dayNumber turns `YYYY-MM-DD` into days since 1970-01-01, or `undefined` when the text is not a
 * real calendar day (`2026-02-30`).
 * @internal
 */
export function dayNumber(day: string): number | undefined {
  const m = DAY_PATTERN.exec(day);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    return undefined;
  return ms / MS_PER_DAY;
}

/**
 * dayString turns a day number back into `YYYY-MM-DD`.
 * @internal
 */
export function dayString(n: number): string {
  return new Date(n * MS_PER_DAY).toISOString().slice(0, 10);
}

/**
 * utcDay is the day number of the UTC calendar day that contains `now`.
 * @internal
 */
export function utcDay(now: Date): number {
  return Math.floor(now.getTime() / MS_PER_DAY);
}

/**
 * MonthPosition is where a day sits in its UTC month.
 * @internal
 */
export interface MonthPosition {
  /** Day number of the 1st of the month. */
  first: number;
  /** Day number of the last day of the month. */
  last: number;
  /** 28, 29, 30 or 31. */
  length: number;
  /** Whole days after `day` up to and including the last day of the month: 0 on the last day. */
  daysLeft: number;
}

/**
 * monthPosition places a day number in its UTC month (leap years included: `Date.UTC` does the
 * calendar).
 * @internal
 */
export function monthPosition(day: number): MonthPosition {
  const date = new Date(day * MS_PER_DAY);
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  const first = Date.UTC(y, m, 1) / MS_PER_DAY;
  // Day 0 of the next month is the last day of this one.
  const last = Date.UTC(y, m + 1, 0) / MS_PER_DAY;
  return { first, last, length: last - first + 1, daysLeft: last - day };
}

/**
 * daysLeftInMonth is the number of whole UTC days after today until the end of the month: 0 on the last
 * day of a month, 27 on 1 February 2026, 28 on 1 February 2028 (a leap year).
 *
 * @example
 * daysLeftInMonth(new Date("2026-11-21T09:00:00Z")); // 9
 */
export function daysLeftInMonth(now: Date): number {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new ConfigError("now", "must be a valid Date (the injected clock)");
  }
  return monthPosition(utcDay(now)).daysLeft;
}

/** isoDay is the UTC day of an instant, `YYYY-MM-DD`. */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** dayStart is 00:00:00.000Z of a `YYYY-MM-DD` day. */
export function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/** addDays adds whole days to a `YYYY-MM-DD` day. */
export function addDays(day: string, n: number): string {
  return isoDay(new Date(dayStart(day).getTime() + n * MS_PER_DAY));
}

/** daysBetween counts the days from `a` to `b` inclusive (0 when b is before a). */
export function daysBetween(a: string, b: string): number {
  return Math.max(0, Math.round((dayStart(b).getTime() - dayStart(a).getTime()) / MS_PER_DAY) + 1);
}

/**
 * formatDayOfMonth writes a day as `30 November` (UTC).
 * @internal
 */
export function formatDayOfMonth(day: string): string {
  return dateFormat("en-GB", { day: "numeric", month: "long", timeZone: "UTC" }).format(dayStart(day));
}

/**
 * dayInWords writes `YYYY-MM-DD` as `30 November` (month "long") or `30 Nov` ("short"), with the year when
 * asked: `30 November 2026` (UTC).
 * @internal
 */
export function dayInWords(day: string, month: "short" | "long", withYear: boolean): string {
  return dateFormat(
    "en-GB",
    { day: "numeric", month, ...(withYear ? { year: "numeric" } : {}), timeZone: "UTC" },
    // a fixed key: the pack words a day per finding, and a key built from the options cost more than the format
    `day in words ${month} ${withYear}`,
  ).format(dayStart(day));
}

/**
 * monthInWords writes the month of `YYYY-MM-DD` as `November` ("long") or `Nov` ("short"), with the year
 * when asked (UTC).
 * @internal
 */
export function monthInWords(day: string, month: "short" | "long", withYear = false): string {
  return dateFormat("en-GB", { month, ...(withYear ? { year: "numeric" } : {}), timeZone: "UTC" }).format(
    dayStart(day),
  );
}
