/**
 * The functions (Invoke): getProjectBalance and getProjectConsumption over the billing client, the one the
 * TypeScript data sources use. The endpoint comes from the arguments, then the provider's configuration,
 * then `COSTGATE_BILLING_URL` / `COSTGATE_BILLING_TOKEN` (settings.ts resolveBillingSettings).
 * @internal
 */
import { type BillingEndpoint, getBalance, getConsumption } from "../billing/client";
import type { Timeouts } from "../http";
import { resolveBillingSettings } from "../settings";
import type { ProviderConfig } from "./config";
import { type Failure, objectFailures, packageSchema } from "./schema";
import type { Props } from "./values";

/** FUNCTION_TOKENS: the functions the plugin serves (scripts/gen-schema.js describes each in the schema). */
export const FUNCTION_TOKENS = ["costgate:index:getProjectBalance", "costgate:index:getProjectConsumption"];

function endpoint(args: Props, config: ProviderConfig, env: NodeJS.ProcessEnv): BillingEndpoint {
  const seconds = config.timeoutSeconds;
  const timeouts =
    (args["timeouts"] as Timeouts | undefined) ??
    (seconds ? { totalMs: seconds * 1000, headersMs: seconds * 1000 } : undefined);
  const s = resolveBillingSettings(
    {
      billingUrl: (args["billingUrl"] as string | undefined) ?? config.billingUrl,
      billingToken: (args["billingToken"] as string | undefined) ?? config.billingToken,
      caCert: (args["caCert"] as string | undefined) ?? config.caCert,
      insecure: config.insecure,
      timeouts,
    },
    undefined,
    env,
  );
  return { baseUrl: s.baseUrl, token: s.token, transport: s.transport };
}

/** checkArgs names the arguments that are not the function's, of the wrong type, or missing. */
export function checkArgs(tok: string, args: Props): Failure[] {
  const fn = packageSchema().functions[tok];
  if (!fn) {
    return [
      {
        property: "tok",
        reason: `tok: "${tok}" is not a function of costgate; it has ${FUNCTION_TOKENS.join(", ")}`,
      },
    ];
  }
  return objectFailures(args, fn.inputs);
}

/** invoke runs a function whose arguments passed checkArgs. */
export async function invoke(
  tok: string,
  args: Props,
  config: ProviderConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<unknown> {
  const ep = endpoint(args, config, env);
  const projectId = args["projectId"] as number | string;
  const product = args["product"] as number | string | undefined;
  if (tok === "costgate:index:getProjectBalance") return getBalance(ep, { projectId, product });
  return getConsumption(ep, {
    projectId,
    product,
    from: args["from"] as string,
    to: args["to"] as string | undefined,
    windowDays: args["windowDays"] as number | undefined,
    concurrency: args["concurrency"] as number | undefined,
    fillMissingDays: args["fillMissingDays"] as boolean | undefined,
    maxPeriodDays: args["maxPeriodDays"] as number | undefined,
    maxRequests: args["maxRequests"] as number | undefined,
  });
}
