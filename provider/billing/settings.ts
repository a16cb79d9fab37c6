/**
 * Where the billing endpoint and its access token come from: arguments, then stack config, then
 * `COSTGATE_BILLING_*`. Apart from provider/settings.ts (the identity's sources: OS_* and clouds.yaml), so a
 * billing command loads none of the identity's modules; provider/settings.ts re-exports it.
 */
import { ConfigError, type SettingNames, settingName } from "../errors";
import type { RetryOptions, Timeouts, TransportOptions } from "../http";
import { truthy } from "../truthy";

/** BillingArgs are the billing settings a caller may give explicitly. */
export interface BillingArgs {
  /** The console/billing base address; costgate adds `/bill/graphql`. */
  billingUrl?: string;
  /** The console access token (docs/API.md#console-access-tokens), sent as `X-User-Token`. */
  billingToken?: string;
  caCert?: string;
  insecure?: boolean;
  timeouts?: Timeouts;
  /** Retries (like `--retries`); `false` turns them off. */
  retry?: RetryOptions | false;
  /** How errors name these settings: their names here unless the caller says otherwise (errors.ts). */
  names?: SettingNames;
}

/** A source of stack configuration, such as `new pulumi.Config("costgate")`. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

/**
 * resolveBillingSettings takes arguments, then stack config (`costgate:billingUrl`,
 * `costgate:billingToken`), then `COSTGATE_BILLING_URL` / `COSTGATE_BILLING_TOKEN`.
 */
export function resolveBillingSettings(
  args: BillingArgs = {},
  config?: ConfigSource,
  env: NodeJS.ProcessEnv = process.env,
): { baseUrl: string; token: string; transport: TransportOptions } {
  const pick = (arg: string | undefined, key: string, envName: string) =>
    [arg, config?.get(key), env[envName]].find((v) => v !== undefined && v.trim() !== "");
  const baseUrl = pick(args.billingUrl, "billingUrl", "COSTGATE_BILLING_URL");
  const token = pick(args.billingToken, "billingToken", "COSTGATE_BILLING_TOKEN");
  if (!baseUrl) {
    const billingUrl = settingName(args.names, "billingUrl");
    // stack config is a Pulumi program's source; a caller that renames the setting reads none
    const stack = billingUrl === "billingUrl" ? ", costgate:billingUrl" : "";
    throw new ConfigError(
      billingUrl,
      `missing; give the billing base address (${billingUrl}${stack} or COSTGATE_BILLING_URL); costgate adds /bill/graphql`,
    );
  }
  if (!token) {
    throw new ConfigError(
      "billingToken",
      "missing; create a console access token (access management → access tokens) and set COSTGATE_BILLING_TOKEN (or the secret costgate:billingToken)",
    );
  }
  const transport: TransportOptions = {};
  const caCert = args.caCert ?? env["OS_CACERT"];
  if (caCert) transport.caCert = caCert;
  if (args.insecure || truthy(env["OS_INSECURE"] ?? "")) transport.insecure = true;
  if (args.timeouts) transport.timeouts = args.timeouts;
  if (args.retry !== undefined) transport.retry = args.retry;
  if (args.names) transport.names = args.names;
  return { baseUrl, token, transport };
}
