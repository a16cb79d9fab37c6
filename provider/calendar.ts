/**
 * The calendar, the one module for days: UTC calendar days as `YYYY-MM-DD` text and as whole numbers
 * (days since 1970-01-01, so spans and gaps are plain subtraction), and days written in words. Every day
 * in costgate is a UTC day; nothing here reads the clock. provider/budget/days.ts re-exports from here;
 * provider/billing/periods.ts reads billing periods with it. parseBound is the one reader of a day or an
 * instant given by a user.
 */
import { ConfigError } from "./errors";
import { dateFormat } from "./money";

const MS_PER_DAY = 86_400_000;
/** What a day or an instant may be written as, for messages (a surface may say less: the CLI takes no Date). */
export const ACCEPTED_INSTANT =
  "use a date YYYY-MM-DD, an ISO 8601 timestamp (2026-11-01T00:00:00Z) or a Date";
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** Days in each month of a common year. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * dayNumber turns `YYYY-MM-DD` into days since 1970-01-01, or `undefined` when the text is not a
 * real calendar day (`2026-02-30`).
 * @internal
 */
export function dayNumber(day: string): number | undefined {
  // by arithmetic, no Date: `check` reads every day of a hundred projects' series twice. What it gives is
  // what Date.UTC gives (test/hostile/perf5.test.ts holds the two side by side), years 0000-0099 included:
  // Date.UTC reads them as 1900-1999, so they were never real days here
  if (day.length !== 10 || !DAY_PATTERN.test(day)) return undefined;
  const digit = (i: number) => day.charCodeAt(i) - 48;
  const y = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3);
  const m = digit(5) * 10 + digit(6);
  const d = digit(8) * 10 + digit(9);
  if (y < 100 || m < 1 || m > 12 || d < 1) return undefined;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > MONTH_DAYS[m - 1]! + (m === 2 && leap ? 1 : 0)) return undefined;
  // days from 1970-01-01 of the proleptic Gregorian calendar, counted in 400-year eras from 0000-03-01
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yearOfEra = yy - era * 400;
  const dayOfYear = Math.floor((153 * ((m + 9) % 12) + 2) / 5) + d - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
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

/** The first year a period may start in: an earlier one is a typo (0026 for 2026), not billing history. */
export const EARLIEST_YEAR = 2000;
/** A period bound: an instant, and whether it was given as a whole day. */
export interface Bound {
  at: Date;
  dateOnly: boolean;
}

function validDate(y: number, m: number, d: number): boolean {
  // setUTCFullYear, unlike Date.UTC, takes years 0-99 as they are.
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d);
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/**
 * parseBound reads one bound of a period. Impossible dates (2026-02-30) are refused.
 *
 * @example parseBound("2026-11-01", "from") // { at: 2026-11-01T00:00:00.000Z, dateOnly: true }
 */
export function parseBound(value: unknown, field: string, accepted = ACCEPTED_INSTANT): Bound {
  const ACCEPTED = accepted;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new ConfigError(field, `is an invalid Date; ${ACCEPTED}`);
    checkYear(value.getUTCFullYear(), value.toISOString().slice(0, 10), field);
    return { at: new Date(value.getTime()), dateOnly: false };
  }
  if (typeof value !== "string" || value.trim() === "") throw new ConfigError(field, `missing; ${ACCEPTED}`);
  const text = value.trim();
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(
      text,
    );
  if (!m) throw new ConfigError(field, `"${text}" is not a date; ${ACCEPTED}`);
  const [, y, mo, d, hh, mi, ss, , zone] = m;
  if (Number(mo) < 1 || Number(mo) > 12) {
    throw new ConfigError(field, `"${text}" is not a real date (there is no month ${mo}); ${ACCEPTED}`);
  }
  if (!validDate(Number(y), Number(mo), Number(d))) {
    throw new ConfigError(field, `"${text}" is not a real date (${y}-${mo} has no day ${d}); ${ACCEPTED}`);
  }
  checkYear(Number(y), text, field);
  if (hh === undefined) return { at: new Date(`${y}-${mo}-${d}T00:00:00.000Z`), dateOnly: true };
  if (Number(hh) > 23 || Number(mi) > 59 || Number(ss ?? 0) > 59) {
    throw new ConfigError(field, `"${text}" has an impossible time; ${ACCEPTED}`);
  }
  const at = new Date(zone ? text.replace(" ", "T") : `${text.replace(" ", "T")}Z`);
  if (Number.isNaN(at.getTime())) throw new ConfigError(field, `"${text}" is not a date; ${ACCEPTED}`);
  return { at, dateOnly: false };
}

function checkYear(year: number, text: string, field: string): void {
  if (year < EARLIEST_YEAR) {
    throw new ConfigError(
      field,
      `"${text}" is before ${EARLIEST_YEAR}: is the year a typo? (no billing history is that old); e.g. 2026-11-01`,
    );
  }
}

/** formatInstant renders the one format the endpoint takes (docs/API.md#limits). */
export function formatInstant(d: Date): string {
  return d.toISOString();
}

/**
 * daysInMonthOf is the length of the UTC month that contains a `YYYY-MM-DD` day: 28 to 31.
 * @internal
 */
export function daysInMonthOf(day: string): number {
  return monthPosition(utcDay(dayStart(day))).length;
}

/**
 * hoursLeftInMonth is the hours from `now` to the end of its UTC month, and that month's last day.
 * @internal
 */
export function hoursLeftInMonth(now: Date): { hours: number; monthEnd: string } {
  const { last } = monthPosition(utcDay(now));
  const end = (last + 1) * MS_PER_DAY;
  return { hours: Math.max(0, (end - now.getTime()) / 3_600_000), monthEnd: dayString(last) };
}
