/**
 * `costgate/billing`: the GraphQL billing endpoint without Pulumi — a project's balance and bonuses,
 * its charges per day for a period (fetched in windows), several projects at once.
 *
 * @example
 * const { getBalance, resolveBillingSettings } = require("costgate/billing");
 * const endpoint = resolveBillingSettings({});           // COSTGATE_BILLING_URL, COSTGATE_BILLING_TOKEN
 * const { balance, bonuses } = await getBalance(endpoint, { projectId: 4242 });
 */
export * from "../billing";
export * from "../errors";
export type { RetryOptions, Timeouts, TransportOptions } from "../http";
export { type BillingArgs, resolveBillingSettings } from "../settings";
