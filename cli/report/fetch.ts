/**
 * Reads what a report needs from the billing endpoint: the balance, the period's charges and, when the
 * period does not cover them, the days the budget rules look at.
 */
import { type BillingEndpoint, getBalance, getConsumption } from "../../provider/billing/client";
import { parsePeriod } from "../../provider/billing/periods";
import type { ProductId } from "../../provider/billing/products";
import { type BudgetConfig, parseBudgetConfig } from "../../provider/budget";
import { addDays, isoDay } from "../../provider/calendar";
import { CHECK_WINDOW_DAYS, checkPeriodStart, unreadBalance } from "../../provider/check";
import { FLAG_NAMES } from "../period-flags";
import { buildReport, type Report, type ReportInput } from "./model";

/** ReportQuery names the project and the period of a report. */
export interface ReportQuery {
  projectId: number;
  product: ProductId;
  /** First day: `YYYY-MM-DD` or an ISO timestamp. */
  from: string;
  /** Last day (the whole day when a date). */
  to: string;
  windowDays?: number;
  concurrency?: number;
  /** The longest period read, in days (default 1096). */
  maxPeriodDays?: number;
}

/** FetchOptions are the clock and the progress callback of fetchReport. */
export interface FetchOptions {
  now?: Date;
  /** Called after each request of the consumption report: windows done and windows in all. */
  onWindow?: (done: number, total: number) => void;
  /** The currency named beside amounts. */
  currency?: string | undefined;
  /**
   * A replay as at the start of this UTC day (`YYYY-MM-DD`, checked by the caller; `now` is then that
   * day's 00:00): the period must end before it, the rules' days end the day before, the balance is not
   * read and the balance rules are not judged.
   */
  asOf?: string | undefined;
}

/**
 * fetchReport reads the balance and the charges at once and builds the report. The period's charges are
 * read with missing days filled in; a second read covers the days the rules need when the period does
 * not (a period that ends before today, or starts after the 1st of the month).
 *
 * @example
 * const report = await fetchReport(endpoint, { projectId: 4242, product: 1, from: "2026-09-24", to: "2026-11-22" }, { monthlyBudget: 40000 });
 */
export async function fetchReport(
  ep: BillingEndpoint,
  q: ReportQuery,
  config: BudgetConfig,
  opts: FetchOptions = {},
): Promise<Report> {
  return buildReport({ ...(await fetchReportInput(ep, q, config, opts)), config });
}

/**
 * fetchReportInput is fetchReport's reads: what buildReport needs but the thresholds (`config` chooses how
 * far back the rules read). The demo builds two reports from one read.
 */
export async function fetchReportInput(
  ep: BillingEndpoint,
  q: ReportQuery,
  config: BudgetConfig,
  opts: FetchOptions = {},
): Promise<Omit<ReportInput, "config">> {
  const now = opts.now ?? new Date();
  const period = parsePeriod(q.from, q.to, { now, maxPeriodDays: q.maxPeriodDays, names: FLAG_NAMES });
  const today = isoDay(now);
  const asOf = opts.asOf;
  // the last day read: today, or the day before the as-of day
  const lastDay = asOf ? addDays(asOf, -1) : today;
  // the first day the budget rules look at (provider/check.ts)
  const evalFrom = checkPeriodStart(now, parseBudgetConfig(config));
  const covered = period.fromDay <= evalFrom && period.toDay >= lastDay;

  // Each read reports its own windows; the callback sees the sum of both.
  const progress = new Map<string, { done: number; total: number }>();
  const onWindow = (key: string) => (done: number, total: number) => {
    progress.set(key, { done, total });
    let d = 0;
    let t = 0;
    for (const p of progress.values()) {
      d += p.done;
      t += p.total;
    }
    opts.onWindow?.(d, t);
  };
  const common = {
    projectId: q.projectId,
    product: q.product,
    windowDays: q.windowDays,
    concurrency: q.concurrency,
    fillMissingDays: true,
    maxPeriodDays: q.maxPeriodDays,
    names: FLAG_NAMES,
  };
  const clock = () => now;
  const [balance, consumption, forRules] = await Promise.all([
    asOf
      ? // not read: the API gives only today's balance
        Promise.resolve(unreadBalance(q.projectId, q.product, now))
      : getBalance(ep, { projectId: q.projectId, product: q.product }, clock),
    getConsumption(ep, { ...common, from: q.from, to: q.to, onWindow: onWindow("period") }, clock),
    covered
      ? undefined
      : // the rules' 12 weeks in one request (as `costgate check`) unless --window-days says otherwise
        getConsumption(
          ep,
          {
            ...common,
            windowDays: q.windowDays ?? CHECK_WINDOW_DAYS,
            from: evalFrom,
            to: lastDay,
            onWindow: onWindow("rules"),
          },
          clock,
        ),
  ]);
  return { balance, consumption, evaluationItems: forRules?.items, now, currency: opts.currency, asOf };
}
