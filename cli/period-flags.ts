/**
 * The command line's words for a billing period's settings: the library names them `from`, `to`,
 * `maxPeriodDays`; the commands say `--from`, `--to`, `--max-period-days`.
 */
import { ACCEPTED_ON_COMMAND_LINE, type PeriodNames } from "../provider/billing/periods";

/** FLAG_NAMES are the command line's flags for the period settings, as errors name them. */
export const FLAG_NAMES: PeriodNames = {
  from: "--from",
  to: "--to",
  maxPeriodDays: "--max-period-days",
  accepted: ACCEPTED_ON_COMMAND_LINE,
  maxRequests: "--max-requests",
  windowDays: "--window-days",
};
