// first: a clear error when the peer @pulumi/pulumi is missing
import "./peer";

export * from "./billing";
export * from "./token";
export { DEFAULT_RENEW_BEFORE_SECONDS } from "./token-impl";
