export * from "./client";
export { DEFAULT_VARIABLE_TYPES } from "./documents";
export { type FetchManyOptions, fetchMany, type ProjectOutcome } from "./many";
export { parseAmount } from "./money";
export { type Period, parsePeriod, splitPeriod } from "./periods";
export * from "./products";
export type { DailyCharge, ProjectBalance, ProjectConsumption } from "./results";
