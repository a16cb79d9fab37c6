export * from "./errors";
export type { Timeouts, TransportOptions } from "./http";
export * from "./identity";
export * from "./resources";
export { type IdentityArgs, type IdentitySettings, resolveIdentitySettings } from "./settings";
