/**
 * Billing data of many projects at once, with bounded concurrency: one keep-alive connection pool,
 * at most `concurrency` requests in flight, one result or typed error per project.
 */
import pLimit from "p-limit";
import { ConfigError, type CostgateError, isCostgateError } from "../errors";
import { type BillingEndpoint, getBalance, parseProjectId } from "./client";
import type { ProjectBalance } from "./results";

/** The outcome for one project: its value, or the costgate error that stopped it. */
export type ProjectOutcome<T> =
  | { projectId: number; ok: true; value: T }
  | { projectId: number; ok: false; error: CostgateError };

/** Options of fetchMany. */
export interface FetchManyOptions<T> {
  /** Projects fetched at once. Default 8. */
  concurrency?: number;
  /** Called after each project, in completion order. */
  onProgress?: (done: number, total: number, projectId: number) => void;
  /** What to fetch for one project. Default: its balance for `product`. */
  fetch?: (ep: BillingEndpoint, projectId: number) => Promise<T>;
  /** The product of the default fetch (getBalance). Default 1 (openstack). */
  product?: number | string;
}

/**
 * fetchMany runs one fetch per project with at most `concurrency` in flight and returns one
 * outcome per project, in the order of `projectIds`. A costgate error (HTTP, network, response)
 * becomes that project's outcome; any other error is a bug and rejects the whole call. Every id is
 * checked before the first request.
 *
 * @example
 * const outcomes = await fetchMany(endpoint, [4242, 4243], {
 *   concurrency: 8,
 *   fetch: (ep, projectId) => getConsumption(ep, { projectId, from: "2026-11-01" }),
 * });
 * for (const o of outcomes) console.log(o.projectId, o.ok ? o.value.total.amount : o.error.message);
 */
export async function fetchMany<T = ProjectBalance>(
  ep: BillingEndpoint,
  projectIds: readonly (number | string)[],
  opts: FetchManyOptions<T> = {},
): Promise<ProjectOutcome<T>[]> {
  const concurrency = opts.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ConfigError("concurrency", `must be a whole number, 1 or more (got ${concurrency})`);
  }
  const ids = projectIds.map((id, i) => parseProjectId(id, `projectIds[${i}]`));
  const fetchOne =
    opts.fetch ??
    ((e: BillingEndpoint, projectId: number) =>
      getBalance(e, { projectId, product: opts.product }) as Promise<T>);
  const limit = pLimit(concurrency);
  let done = 0;
  return Promise.all(
    ids.map((projectId) =>
      limit(async (): Promise<ProjectOutcome<T>> => {
        let outcome: ProjectOutcome<T>;
        try {
          outcome = { projectId, ok: true, value: await fetchOne(ep, projectId) };
        } catch (error) {
          if (!isCostgateError(error)) {
            limit.clearQueue();
            throw error;
          }
          outcome = { projectId, ok: false, error };
        }
        opts.onProgress?.(++done, ids.length, projectId);
        return outcome;
      }),
    ),
  );
}
