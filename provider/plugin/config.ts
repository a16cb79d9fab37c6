/**
 * The provider's configuration (`costgate:authUrl`, `costgate:billingToken`, ...): read from Configure's
 * `args` (typed values, secrets in envelopes) or its `variables` (`costgate:config:<key>`, strings), and
 * checked in CheckConfig. Each key falls back, when absent, to the same `OS_*` / `COSTGATE_*` environment
 * and clouds.yaml as the library (settings.ts).
 * @internal
 */
import { type Failure, objectFailures, packageSchema } from "./schema";
import { type Props, reveal } from "./values";

/**
 * CONFIG_KEYS: each configuration key, with the TypeScript declaration whose member of that name gives
 * its type and description in the schema (scripts/gen-schema.js reads this list).
 */
export const CONFIG_KEYS = {
  authUrl: "TokenResourceArgs",
  caCert: "TokenResourceArgs",
  insecure: "TokenResourceArgs",
  billingUrl: "BillingConnectionArgs",
  billingToken: "BillingConnectionArgs",
  timeoutSeconds: "TokenResourceArgs",
  cloud: "TokenResourceArgs",
} as const;

/** ProviderConfig is the provider's configuration, checked. */
export interface ProviderConfig {
  authUrl?: string;
  caCert?: string;
  insecure?: boolean;
  billingUrl?: string;
  billingToken?: string;
  timeoutSeconds?: number;
  cloud?: string;
}

const VARIABLE_PREFIX = "costgate:config:";

/**
 * fromVariables reads Configure's `variables`: strings, the non-string ones JSON-encoded by the engine.
 * Keys of other packages and unknown keys are left for the schema check to name.
 */
export function fromVariables(vars: Iterable<[string, string]>): Props {
  const out: Props = {};
  for (const [key, text] of vars) {
    if (!key.startsWith(VARIABLE_PREFIX)) continue;
    const name = key.slice(VARIABLE_PREFIX.length);
    const spec = packageSchema().config.variables[name];
    if (spec && spec.type !== "string") {
      try {
        out[name] = JSON.parse(text);
      } catch {
        out[name] = text; // named by the type check
      }
    } else out[name] = text;
  }
  return out;
}

/** coerce reads the strings a config file gives for booleans and numbers ("true", "30"). */
function coerce(values: Props): Props {
  const out: Props = { ...values };
  for (const [k, v] of Object.entries(values)) {
    const type = packageSchema().config.variables[k]?.type;
    if (typeof v !== "string") continue;
    const t = v.trim().toLowerCase();
    if (type === "boolean" && (t === "true" || t === "false")) out[k] = t === "true";
    if ((type === "number" || type === "integer") && t !== "" && Number.isFinite(Number(t)))
      out[k] = Number(t);
  }
  return out;
}

/**
 * checkConfig checks a configuration (plain values or envelopes): keys the provider has, values of
 * their type, a timeout above zero. The `version` key is the engine's.
 */
export function checkConfig(raw: Props): { config: ProviderConfig; failures: Failure[] } {
  const { version: _version, ...rest } = reveal(raw) as Props;
  const values = coerce(rest);
  const failures = objectFailures(values, { properties: packageSchema().config.variables });
  const t = values["timeoutSeconds"];
  if (typeof t === "number" && !(t > 0)) {
    failures.push({ property: "timeoutSeconds", reason: "timeoutSeconds: must be above 0 seconds" });
  }
  for (const [k, v] of Object.entries(values)) {
    if (v === null || v === "") delete values[k];
  }
  return { config: values as ProviderConfig, failures };
}
