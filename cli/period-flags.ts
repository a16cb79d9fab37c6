/**
 * The command line's words for a billing period's settings: the library names them `from`, `to`,
 * `maxPeriodDays`, `maxRequests`, `windowDays`; the commands say `--from`, `--to`, `--max-period-days`,
 * `--max-requests`, `--window-days`, and accept no Date object.
 */
import { type Period, type PeriodNames, parsePeriod } from "../provider/billing/periods";
import { flag } from "./names";

/** What the command line accepts as a day or an instant (the library also takes a Date). */
export const ACCEPTED_ON_COMMAND_LINE =
  "use a date YYYY-MM-DD or an ISO 8601 timestamp (2026-11-01T00:00:00Z)";

/** FLAG_NAMES are the command line's flags for the period settings, as errors name them (cli/names.ts). */
export const FLAG_NAMES: PeriodNames = {
  from: flag("from"),
  to: flag("to"),
  maxPeriodDays: flag("maxPeriodDays"),
  accepted: ACCEPTED_ON_COMMAND_LINE,
  maxRequests: flag("maxRequests"),
  windowDays: flag("windowDays"),
};

/** parseCommandLinePeriod checks --from and --to as the library's parsePeriod does, naming the flags. */
export function parseCommandLinePeriod(
  from: string,
  to: string,
  o: { now?: Date; maxPeriodDays?: number | undefined },
): Period {
  return parsePeriod(from, to, {
    ...(o.now ? { now: o.now } : {}),
    ...(o.maxPeriodDays === undefined ? {} : { maxPeriodDays: o.maxPeriodDays }),
    names: FLAG_NAMES,
  });
}
