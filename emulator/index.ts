/**
 * costgate's offline emulator of the cloud: Keystone v3 identity and the billing GraphQL endpoint
 * on one local port, for tests, the demo and users' CI.
 */

export { formatBanner } from "./banner";
export {
  type BillingProjectInput,
  type DailyChargeInput,
  type GeneratedChargesInput,
  PRODUCTS,
  type ProductInput,
} from "./billing/data";
export { BILLING_SDL } from "./billing/schema";
export type { RecordedRequest } from "./http";
export type { BillingKnobs, FaultKnobs, IdentityKnobs, Knobs } from "./knobs";
export {
  DEFAULT_SEED,
  type SeedApplicationCredential,
  type SeedBillingProject,
  type SeedBillingToken,
  type SeedData,
  type SeedDomain,
  type SeedProject,
  type SeedRole,
  type SeedUser,
} from "./seed";
export { type Emulator, type EmulatorOptions, startEmulator } from "./server";
