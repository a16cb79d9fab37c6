/**
 * Periods of the consumption report (docs/API.md#billing-parameters, docs/API.md#consumption): parsed from a Date, `YYYY-MM-DD` or an ISO
 * timestamp, sent as `YYYY-MM-DDTHH:mm:ss.sssZ` in UTC, and split into windows for long periods.
 */
import {
  ACCEPTED_INSTANT as ACCEPTED,
  addDays,
  type Bound,
  dayStart,
  daysBetween,
  EARLIEST_YEAR,
  formatInstant,
  isoDay,
  parseBound,
} from "../calendar";
import { ConfigError } from "../errors";

const DAY_MS = 86_400_000;

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

export { addDays, type Bound, dayStart, daysBetween, EARLIEST_YEAR, formatInstant, isoDay, parseBound };

/** A validated period: the days it covers and the exact strings sent. */
export interface Period {
  fromDay: string;
  toDay: string;
  /** Sent as periodFrom: `YYYY-MM-DDTHH:mm:ss.sssZ`. */
  periodFrom: string;
  /** Sent as periodTo: `YYYY-MM-DDTHH:mm:ss.sssZ`; a date-only `to` means the end of that day. */
  periodTo: string;
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
