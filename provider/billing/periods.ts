/**
 * Periods of the consumption report (docs/API.md#billing-parameters, docs/API.md#consumption): parsed from a Date, `YYYY-MM-DD` or an ISO
 * timestamp, sent as `YYYY-MM-DDTHH:mm:ss.sssZ` in UTC, and split into windows for long periods.
 */
import { addDays, dayStart, daysBetween, isoDay } from "../calendar";
import { ConfigError } from "../errors";

const DAY_MS = 86_400_000;
const ACCEPTED = "use a date YYYY-MM-DD, an ISO 8601 timestamp (2026-11-01T00:00:00Z) or a Date";

/** The first year a period may start in: an earlier one is a typo (0026 for 2026), not billing history. */
export const EARLIEST_YEAR = 2000;
/** The longest period read by default, in days: three years and a day. */
export const DEFAULT_MAX_PERIOD_DAYS = 1096;

/**
 * How a caller names the settings in messages, and what it accepts: the library's own names by default;
 * a surface with its own words for them (the command line's flags, cli/period-flags.ts) passes these.
 */
export interface PeriodNames {
  from: string;
  to: string;
  maxPeriodDays: string;
  /** The forms accepted, for messages. */
  accepted: string;
  maxRequests?: string;
  windowDays?: string;
}

const LIBRARY_NAMES: PeriodNames = {
  from: "from",
  to: "to",
  maxPeriodDays: "maxPeriodDays",
  accepted: ACCEPTED,
};

/** A period bound: an instant, and whether it was given as a whole day. */
export interface Bound {
  at: Date;
  dateOnly: boolean;
}

export { addDays, dayStart, daysBetween, isoDay };

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
export function parseBound(value: unknown, field: string, accepted = ACCEPTED): Bound {
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

/** A validated period: the days it covers and the exact strings sent. */
export interface Period {
  fromDay: string;
  toDay: string;
  /** Sent as periodFrom: `YYYY-MM-DDTHH:mm:ss.sssZ`. */
  periodFrom: string;
  /** Sent as periodTo: `YYYY-MM-DDTHH:mm:ss.sssZ`; a date-only `to` means the end of that day. */
  periodTo: string;
}

/** formatInstant renders the one format the endpoint takes (docs/API.md#limits). */
export function formatInstant(d: Date): string {
  return d.toISOString();
}

/** Options of {@link parsePeriod}. */
export interface PeriodOptions {
  /** The end when `to` is not given. Default: now. */
  now?: Date;
  /** The longest period accepted, in days. Default {@link DEFAULT_MAX_PERIOD_DAYS} (1096). */
  maxPeriodDays?: number;
  /** How messages name the settings: the library's fields by default, a surface's own words otherwise. */
  names?: PeriodNames;
}

/**
 * parsePeriod validates `from` and `to` (default: now), refusing `to` before `from` (naming `from`
 * when it is in the future, `to` otherwise), years before
 * 2000 and a period longer than `maxPeriodDays`: nothing is requested for a typo'd year.
 *
 * @example parsePeriod("2026-11-01", "2026-11-22").periodTo // "2026-11-22T23:59:59.999Z"
 */
export function parsePeriod(from: unknown, to: unknown, options: Date | PeriodOptions = {}): Period {
  const o: PeriodOptions = options instanceof Date ? { now: options } : options;
  const names = o.names ?? LIBRARY_NAMES;
  const maxDays = o.maxPeriodDays ?? DEFAULT_MAX_PERIOD_DAYS;
  if (!Number.isInteger(maxDays) || maxDays < 1) {
    throw new ConfigError(names.maxPeriodDays, `must be a whole number of days, 1 or more (got ${maxDays})`);
  }
  const f = parseBound(from, names.from, names.accepted);
  const t =
    to === undefined || to === null || to === ""
      ? { at: o.now ?? new Date(), dateOnly: false }
      : parseBound(to, names.to, names.accepted);
  const end = t.dateOnly ? new Date(t.at.getTime() + DAY_MS - 1) : t.at;
  const now = o.now ?? new Date();
  // a start after the end: when the start is in the future it is the start's fault (the end may be
  // today by default), else the end's
  if (f.at.getTime() > end.getTime() && f.at.getTime() > now.getTime()) {
    throw new ConfigError(
      names.from,
      `${f.dateOnly ? isoDay(f.at) : formatInstant(f.at)} is in the future (it is now ${formatInstant(now)}); give a start of ${isoDay(now)} or earlier`,
    );
  }
  if (f.at.getTime() > end.getTime()) {
    throw new ConfigError(
      names.to,
      `${formatInstant(end)} is before ${names.from} (${formatInstant(f.at)}); give a period whose start comes before its end`,
    );
  }
  const period = {
    fromDay: isoDay(f.at),
    toDay: isoDay(end),
    periodFrom: formatInstant(f.at),
    periodTo: formatInstant(end),
  };
  const days = daysBetween(period.fromDay, period.toDay);
  if (days > maxDays) {
    throw new ConfigError(
      names.from,
      `the period ${period.fromDay} to ${period.toDay} is ${days} days, longer than ${maxDays} (${names.maxPeriodDays}); is a year mistyped? Shorten the period, or raise ${names.maxPeriodDays}`,
    );
  }
  return period;
}

/**
 * splitPeriod cuts a period into windows of at most `windowDays` whole days. Windows never share a
 * day, so merging them cannot count a boundary day twice; a period that fits is one window.
 */
export function splitPeriod(p: Period, windowDays: number): Period[] {
  if (!Number.isInteger(windowDays) || windowDays < 1) {
    throw new ConfigError("windowDays", `must be a whole number of days, 1 or more (got ${windowDays})`);
  }
  if (daysBetween(p.fromDay, p.toDay) <= windowDays) return [p];
  const out: Period[] = [];
  for (let start = p.fromDay; start <= p.toDay; start = addDays(start, windowDays)) {
    const lastDay = addDays(start, windowDays - 1);
    const end = lastDay >= p.toDay ? p.toDay : lastDay;
    out.push({
      fromDay: start,
      toDay: end,
      periodFrom: start === p.fromDay ? p.periodFrom : formatInstant(dayStart(start)),
      periodTo: end === p.toDay ? p.periodTo : `${end}T23:59:59.999Z`,
    });
  }
  return out;
}
