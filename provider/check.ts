/**
 * checkProject: fetch a project's balance and recent consumption, then run the budget rules.
 * The one place the CLI's `costgate check`, the report and the policy pack get their verdicts.
 */
import { type BillingEndpoint, getBalance, getConsumption } from "./billing/client";
import { addDays, isoDay } from "./billing/periods";
import type { ProjectBalance, ProjectConsumption } from "./billing/results";
import { type BudgetConfig, DEFAULT_SPIKE_WINDOW_DAYS, DEFAULT_TRAILING_DAYS, evaluate } from "./budget";
import type { Evaluation } from "./budget/types";

/** What one check read and decided. */
export interface ProjectCheck {
  balance: ProjectBalance;
  consumption: ProjectConsumption;
  evaluation: Evaluation;
}

/**
 * checkPeriodStart is the first day the budget rules look at: the month's first day, or earlier
 * when the trailing average or the spike median (and the last full day before it) reach further back.
 */
export function checkPeriodStart(now: Date, config: BudgetConfig = {}): string {
  const today = isoDay(now);
  const monthStart = `${today.slice(0, 8)}01`;
  const back =
    Math.max(
      config.trailingDays ?? DEFAULT_TRAILING_DAYS,
      config.spikeWindowDays ?? DEFAULT_SPIKE_WINDOW_DAYS,
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
    // A check reads at most about two months: one request.
    getConsumption(
      ep,
      { projectId: q.projectId, product: q.product, from, to: q.now, windowDays: 62 },
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
  q: { projectId: number; product?: number | string; config?: BudgetConfig; now?: Date },
): Promise<ProjectCheck> {
  const now = q.now ?? new Date();
  const data = await fetchProjectData(ep, { ...q, now });
  return { ...data, evaluation: evaluateData(data, q.projectId, now, q.config) };
}

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
