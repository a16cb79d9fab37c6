export {
  type BillingEndpoint,
  getBalance,
  getConsumption,
  graphqlUrl,
  normalizeDay,
  parseProjectId,
} from "./billing/client";
export { type FetchManyOptions, fetchMany, type ProjectOutcome } from "./billing/many";
export { parsePeriod, splitPeriod } from "./billing/periods";
export * from "./billing/products";
export * from "./budget";
export * from "./errors";
export type { RetryOptions, Timeouts, TransportOptions } from "./http";
export * from "./identity";
export * from "./resources";
export {
  type BillingArgs,
  type IdentityArgs,
  type IdentitySettings,
  resolveBillingSettings,
  resolveIdentitySettings,
} from "./settings";
export { type CleanOptions, cleanText, rememberSecret, stripControls } from "./text";
