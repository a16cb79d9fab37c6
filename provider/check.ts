/**
 * checkProject: fetch a project's balance and recent consumption, then run the budget rules.
 * The one place the CLI's `costgate check`, the report and the policy pack get their verdicts.
 */
import { type BillingEndpoint, getBalance, getConsumption } from "./billing/client";
import type { ProductId } from "./billing/products";
import type { ProjectBalance, ProjectConsumption } from "./billing/results";
import {
  type BudgetConfig,
  DEFAULT_SPIKE_WINDOW_DAYS,
  DEFAULT_TRAILING_DAYS,
  evaluate,
  verdictOf,
} from "./budget";
import type { Evaluation } from "./budget/types";
import { addDays, dayStart, isoDay, parseBound } from "./calendar";
import { ConfigError } from "./errors";

/** What one check read and decided. */
export interface ProjectCheck {
  balance: ProjectBalance;
  consumption: ProjectConsumption;
  evaluation: Evaluation;
}

/** Days of history the forecast model reads: 12 weeks (8 for the weekday factors, the rest for its backtests). */
export const MODEL_HISTORY_DAYS = 84;
/**
 * The window a check reads its charges in, one request: the 85 days before today (the model's 12 weeks and the
 * last full day before them; longer than any month, so the month so far is always inside) and today.
 */
export const CHECK_WINDOW_DAYS = 93;

/**
 * checkPeriodStart is the first day the budget rules look at: 12 weeks back for the forecast model, or
 * further when the trailing average or the spike median (and the last full day before it) reach further.
 */
export function checkPeriodStart(now: Date, config: BudgetConfig = {}): string {
  const today = isoDay(now);
  const monthStart = `${today.slice(0, 8)}01`;
  const back =
    Math.max(
      config.trailingDays ?? DEFAULT_TRAILING_DAYS,
      config.spikeWindowDays ?? DEFAULT_SPIKE_WINDOW_DAYS,
      MODEL_HISTORY_DAYS,
    ) + 1;
  const windowStart = addDays(today, -back);
  return windowStart < monthStart ? windowStart : monthStart;
}

/** fetchProjectData reads the balance and the consumption a check needs, in parallel. */
export async function fetchProjectData(
  ep: BillingEndpoint,
  q: { projectId: number; product?: number | string; now: Date; config?: BudgetConfig },
): Promise<{ balance: ProjectBalance; consumption: ProjectConsumption }> {
  const from = checkPeriodStart(q.now, q.config);
  const [balance, consumption] = await Promise.all([
    getBalance(ep, { projectId: q.projectId, product: q.product }, () => q.now),
    // A check reads the 85 days before today (the forecast model's 12 weeks and a day; the month so far is
    // inside them) and today: one request.
    getConsumption(
      ep,
      { projectId: q.projectId, product: q.product, from, to: q.now, windowDays: CHECK_WINDOW_DAYS },
      () => q.now,
    ),
  ]);
  return { balance, consumption };
}

/**
 * checkProject runs the budget rules on live billing data.
 *
 * @example
 * const { evaluation } = await checkProject(endpoint, { projectId: 4242, config: { minRunwayDays: 14 } });
 * if (evaluation.verdict === "fail") process.exitCode = 1;
 */
export async function checkProject(
  ep: BillingEndpoint,
  q: { projectId: number; product?: number | string; config?: BudgetConfig; now?: Date; asOf?: string },
): Promise<ProjectCheck> {
  if (q.asOf !== undefined) return checkAsOf(ep, { ...q, asOf: q.asOf });
  const now = q.now ?? new Date();
  const data = await fetchProjectData(ep, { ...q, now });
  return { ...data, evaluation: evaluateData(data, q.projectId, now, q.config) };
}

/** The rules that need the balance, which the API gives only for today. */
const BALANCE_RULES = new Set(["min-balance", "min-runway-days"]);

/**
 * checkAsOf replays a check as at the start of the UTC day `asOf` (`YYYY-MM-DD`, before today): the
 * charges up to the day before are read, nothing of `asOf` or later, and the rules run with `now` at
 * 00:00 of that day (so today's partial charge is 0 and the whole of the day is still to come). The
 * balance is not read: the API gives only today's, so min-balance and min-runway-days are not judged
 * (status `not-judged`, saying why) and the balance figures are 0. With no other mandatory rule judged
 * the verdict is `none`, never `pass`.
 */
export async function checkAsOf(
  ep: BillingEndpoint,
  q: { projectId: number; product?: number | string; config?: BudgetConfig; asOf: string; now?: Date },
): Promise<ProjectCheck> {
  const asOf = parseAsOf(q.asOf, "asOf", q.now);
  const now = dayStartOf(asOf);
  const from = checkPeriodStart(now, q.config);
  const last = addDays(asOf, -1);
  const consumption = await getConsumption(
    ep,
    {
      projectId: q.projectId,
      product: q.product,
      from: from <= last ? from : last,
      to: last,
      windowDays: CHECK_WINDOW_DAYS,
    },
    () => now,
  );
  const balance = unreadBalance(q.projectId, consumption.productId, now);
  const evaluation = asOfEvaluation(evaluateData({ balance, consumption }, q.projectId, now, q.config), asOf);
  return { balance, consumption, evaluation };
}

/** unreadBalance stands in for the balance a replay does not read: 0, as at the replay's start. */
export function unreadBalance(projectId: number, productId: ProductId, now: Date): ProjectBalance {
  return { projectId, productId, balance: 0, bonuses: 0, fetchedAt: now.toISOString() };
}

/**
 * asOfEvaluation turns an evaluation made without a balance (a replay as of `asOf`) into what such a
 * replay can say: min-balance and min-runway-days, when configured, not judged (status `not-judged`,
 * saying why), no runway forecast, the verdict from the other rules (`none` when no other mandatory rule
 * was judged).
 */
export function asOfEvaluation(evaluation: Evaluation, asOf: string): Evaluation {
  const findings = evaluation.findings.map((f) =>
    BALANCE_RULES.has(f.rule) && f.level !== "disabled" && f.status !== "not-configured"
      ? {
          ...f,
          status: "not-judged" as const,
          message: `The ${f.rule} rule is not judged as of ${asOf}: the billing API gives only today's balance.`,
          figures: {},
        }
      : f,
  );
  return {
    ...evaluation,
    figures: {
      ...evaluation.figures,
      runwayDays: null,
      forecast: { ...evaluation.figures.forecast, runwayDays: null },
    },
    findings,
    verdict: verdictOf(findings),
  };
}

const ACCEPTED_AS_OF = "give a day as YYYY-MM-DD, e.g. 2026-11-10";

/**
 * parseAsOf checks an as-of day: `YYYY-MM-DD`, a real day from 2000 on, not after today (UTC). `field`
 * names it in errors (`--as-of` on the command line).
 */
export function parseAsOf(value: unknown, field = "asOf", now: Date = new Date()): string {
  const today = isoDay(now);
  const day = parseBound(value, field, ACCEPTED_AS_OF);
  if (!day.dateOnly) throw new ConfigError(field, `"${String(value)}" is not a day; ${ACCEPTED_AS_OF}`);
  const asOf = isoDay(day.at);
  if (asOf > today) throw new ConfigError(field, `${asOf} is after today (${today}); give a day up to today`);
  return asOf;
}

/** dayStartOf is 00:00 UTC of a `YYYY-MM-DD` day (the one calendar's dayStart). */
export const dayStartOf = dayStart;

/** evaluateData runs the rules on data already read. */
export function evaluateData(
  data: { balance: ProjectBalance; consumption: ProjectConsumption },
  projectId: number,
  now: Date,
  config: BudgetConfig = {},
): Evaluation {
  return evaluate(
    {
      projectId,
      balance: data.balance.balance,
      bonuses: data.balance.bonuses,
      consumption: data.consumption.items,
      now,
    },
    config,
  );
}
