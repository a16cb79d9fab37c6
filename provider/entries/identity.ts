/**
 * `costgate/identity`: Keystone v3 tokens without Pulumi — issue, validate, check and revoke a token,
 * find endpoints in its catalog, and resolve settings the OpenStack way (arguments, `OS_*`, clouds.yaml).
 *
 * @example
 * const { issueToken, resolveIdentitySettings } = require("costgate/identity");
 * const s = resolveIdentitySettings({});                 // OS_AUTH_URL, OS_APPLICATION_CREDENTIAL_*
 * const token = await issueToken({ authUrl: s.authUrl, transport: s.transport }, s.auth);
 */
export * from "../errors";
export type { RetryOptions, Timeouts, TransportOptions } from "../http";
export * from "../identity";
export {
  type IdentityArgs,
  type IdentitySettings,
  resolveIdentitySettings,
} from "../settings";
