/**
 * Billing data sources: getProjectBalance / getProjectBalanceOutput and getProjectConsumption /
 * getProjectConsumptionOutput, following Pulumi's invoke conventions. They run in the program, so
 * they work during `pulumi preview`; nothing they read is stored in state unless the program exports it.
 */
import * as pulumi from "@pulumi/pulumi";
import { type BillingEndpoint, getBalance, getConsumption } from "../billing/client";
import type { ProjectBalance, ProjectConsumption } from "../billing/results";
import type { Timeouts } from "../http";
import { resolveBillingSettings } from "../settings";

export type { ProjectBalance, ProjectConsumption } from "../billing/results";

/** Where the billing endpoint is. Each falls back to stack config, then env. */
export interface BillingConnectionArgs {
  /** The billing base URL; costgate adds /bill/graphql. Default: `costgate:billingUrl`, then `COSTGATE_BILLING_URL`. */
  billingUrl?: string;
  /** The console access token. Default: the secret `costgate:billingToken`, then `COSTGATE_BILLING_TOKEN`. */
  billingToken?: string;
  /** A PEM bundle of CA certificates to trust. Default: `OS_CACERT`. */
  caCert?: string;
  timeouts?: Timeouts;
}

/** Arguments of getProjectBalance. */
export interface GetProjectBalanceArgs extends BillingConnectionArgs {
  /** The project id (`externalSubscriptionId`): a positive integer. */
  projectId: number | string;
  /** 1 | 2 | 3, or openstack | object-storage | vmware. Default openstack. */
  product?: number | string;
}

/** Arguments of getProjectConsumption. */
export interface GetProjectConsumptionArgs extends GetProjectBalanceArgs {
  /** First day: a Date, `YYYY-MM-DD` or an ISO timestamp. */
  from: Date | string;
  /** Last day (a date means the whole day). Default: now. */
  to?: Date | string;
  /** Longest window asked for in one request, in days. Default 31. */
  windowDays?: number;
  /** Windows fetched at once. Default 4. */
  concurrency?: number;
  /** Add zero items for days without charges. Default false. */
  fillMissingDays?: boolean;
  /** The longest period read, in days. Default 1096: a typo'd year is refused before any request. */
  maxPeriodDays?: number;
  /** The most requests the read sends, retries included. Default 200. */
  maxRequests?: number;
}

type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

const cache = new Map<string, Promise<unknown>>();

function endpoint(args: BillingConnectionArgs): BillingEndpoint {
  const config = { get: (key: string) => pulumi.runtime.getConfig(`costgate:${key}`) };
  const s = resolveBillingSettings(
    {
      billingUrl: args.billingUrl,
      billingToken: args.billingToken,
      caCert: args.caCert,
      timeouts: args.timeouts,
    },
    config,
  );
  return { baseUrl: s.baseUrl, token: s.token, transport: s.transport };
}

/** once runs a query once per program run; a failed query is forgotten so a retry can go out. */
function once<T>(key: unknown[], run: () => Promise<T>): Promise<T> {
  const k = JSON.stringify(key);
  let p = cache.get(k) as Promise<T> | undefined;
  if (!p) {
    p = run();
    cache.set(k, p);
    p.catch(() => cache.delete(k));
  }
  return p;
}

/**
 * getProjectBalance reads a project's balance and bonuses (docs/API.md#balance). The same query in one
 * program run goes out once. Bad settings reject the promise (a ConfigError naming the field), never throw.
 *
 * @example
 * const bal = await getProjectBalance({ projectId: 4242, product: "openstack" });
 * pulumi.log.info(`balance ${bal.balance}`);
 */
export async function getProjectBalance(
  args: GetProjectBalanceArgs,
  _opts?: pulumi.InvokeOptions,
): Promise<ProjectBalance> {
  const ep = endpoint(args);
  return once(["balance", ep.baseUrl, ep.token, String(args.projectId), String(args.product ?? 1)], () =>
    getBalance(ep, { projectId: args.projectId, product: args.product }),
  );
}

/**
 * getProjectBalanceOutput is getProjectBalance for Pulumi inputs.
 *
 * @example export const balance = getProjectBalanceOutput({ projectId: cfg.requireNumber("projectId") }).balance;
 */
export function getProjectBalanceOutput(
  args: Inputs<GetProjectBalanceArgs>,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<ProjectBalance> {
  return pulumi.output(args).apply((a) => getProjectBalance(a as GetProjectBalanceArgs, opts));
}

/**
 * getProjectConsumption reads per-day charges of a period (docs/API.md#consumption), normalized and summed in
 * decimal arithmetic, in windows when the period is long.
 *
 * @example
 * const usage = await getProjectConsumption({ projectId: 4242, from: "2026-11-01", to: "2026-11-22" });
 * // usage.items[], usage.total.amount, usage.dailyAverage, usage.days
 */
export async function getProjectConsumption(
  args: GetProjectConsumptionArgs,
  _opts?: pulumi.InvokeOptions,
): Promise<ProjectConsumption> {
  const ep = endpoint(args);
  // (an invalid Date is refused by name below, not by toISOString's RangeError here)
  const text = (d: Date | string | undefined) =>
    d instanceof Date ? (Number.isNaN(d.getTime()) ? "Invalid Date" : d.toISOString()) : d;
  const from = text(args.from);
  const to = text(args.to);
  const key = [
    "consumption",
    ep.baseUrl,
    ep.token,
    String(args.projectId),
    String(args.product ?? 1),
    from,
    to ?? "",
  ];
  return once(
    [
      ...key,
      args.windowDays ?? 31,
      args.fillMissingDays === true,
      args.maxPeriodDays ?? 0,
      args.maxRequests ?? 0,
    ],
    () =>
      getConsumption(ep, {
        projectId: args.projectId,
        product: args.product,
        from: args.from,
        to: args.to,
        windowDays: args.windowDays,
        concurrency: args.concurrency,
        fillMissingDays: args.fillMissingDays,
        maxPeriodDays: args.maxPeriodDays,
        maxRequests: args.maxRequests,
      }),
  );
}

/**
 * getProjectConsumptionOutput is getProjectConsumption for Pulumi inputs.
 *
 * @example
 * const usage = getProjectConsumptionOutput({ projectId: 4242, from: "2026-11-01", to: "2026-11-22" });
 * export const spent = usage.total.amount;
 */
export function getProjectConsumptionOutput(
  args: Inputs<GetProjectConsumptionArgs>,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<ProjectConsumption> {
  return pulumi.output(args).apply((a) => getProjectConsumption(a as GetProjectConsumptionArgs, opts));
}
