export * from "./billing";
export * from "./token";
export { DEFAULT_RENEW_BEFORE_SECONDS } from "./token-impl";
