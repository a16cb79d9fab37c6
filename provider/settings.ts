/**
 * Where credentials and URLs come from: explicit arguments first, then the OpenStack conventions
 * users already have — `OS_*` environment variables, then `clouds.yaml` + `secure.yaml` for the
 * cloud named by `cloud` / `OS_CLOUD` (openstacksdk's search path).
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { ConfigError, type SettingNames, settingName } from "./errors";
import type { Assert, Exact } from "./exact";
import { readBounded } from "./files";
import type { RetryOptions, Timeouts, TransportOptions } from "./http";
import { type AuthMethod, validateAuth } from "./identity/auth";
import { authMethodFields, IDENTITY_FIELDS, type IdentityFieldName } from "./identity/fields";
import { normalizeAuthUrl } from "./identity/urls";
import { ownValue } from "./own";
import { truthy } from "./truthy";

/** IdentityArgs are the identity settings a caller may give explicitly; every field is optional. */
export interface IdentityArgs {
  authUrl?: string;
  /** `v3applicationcredential` or `password`; inferred when absent. */
  authType?: string;
  applicationCredentialId?: string;
  applicationCredentialName?: string;
  applicationCredentialSecret?: string;
  username?: string;
  userId?: string;
  password?: string;
  userDomainName?: string;
  userDomainId?: string;
  projectName?: string;
  projectId?: string;
  projectDomainId?: string;
  projectDomainName?: string;
  regionName?: string;
  interface?: string;
  /** A cloud of clouds.yaml (like `--os-cloud` / `OS_CLOUD`). */
  cloud?: string;
  /** Path to a CA bundle (like `OS_CACERT`). */
  caCert?: string;
  /** Skip TLS verification (like `--insecure`). */
  insecure?: boolean;
  timeouts?: Timeouts;
  /** Retries (like `--retries`); `false` turns them off. */
  retry?: RetryOptions | false;
  /** How errors name these settings: their names here unless the caller says otherwise (errors.ts). */
  names?: SettingNames;
}

/** IdentitySettings are resolved, validated settings: an address, an auth method and transport options. */
export interface IdentitySettings {
  authUrl: string;
  auth: AuthMethod;
  transport: TransportOptions;
  regionName?: string;
  interface?: string;
}

type Fields = Omit<IdentityArgs, "timeouts" | "retry" | "cloud" | "names">;

/** The environment variables of each field (identity/fields.ts), first found wins. */
const ENV_NAMES = Object.fromEntries(
  IDENTITY_FIELDS.filter((f) => f.name !== "cloud").map((f) => [f.name, f.env]),
) as unknown as Record<keyof Fields, readonly string[]>;

/** The field list names every identity argument, and nothing else. */
type _EveryField = Assert<
  Exact<IdentityFieldName, Exclude<keyof IdentityArgs, "timeouts" | "retry" | "names">>
>;

/** The clouds.yaml `auth:` key of each field that has one (identity/fields.ts). */
const CLOUD_AUTH_KEYS = Object.fromEntries(
  IDENTITY_FIELDS.flatMap((f) => ("cloudsKey" in f ? [[f.name, f.cloudsKey]] : [])),
) as Partial<Record<keyof Fields, string>>;

function fromEnv(env: NodeJS.ProcessEnv): Fields {
  const out: Record<string, unknown> = {};
  for (const [field, names] of Object.entries(ENV_NAMES)) {
    for (const name of names) {
      const v = env[name];
      if (v !== undefined && v !== "") {
        out[field] = field === "insecure" ? truthy(v) : v;
        break;
      }
    }
  }
  return out as Fields;
}

/** The files openstacksdk reads, in order; the first that exists wins. */
export function configSearchPath(kind: "clouds" | "secure", env: NodeJS.ProcessEnv = process.env): string[] {
  const explicit = kind === "clouds" ? env["OS_CLIENT_CONFIG_FILE"] : env["OS_CLIENT_SECURE_FILE"];
  const file = `${kind}.yaml`;
  const paths = [
    join(process.cwd(), file),
    join(homedir(), ".config", "openstack", file),
    join("/etc/openstack", file),
  ];
  return explicit ? [explicit, ...paths] : paths;
}

function readYaml(path: string): Record<string, unknown> {
  // 1 MiB at most (COSTGATE_MAX_INPUT_SIZE raises it): a clouds.yaml is a few kilobytes
  const text = readBounded(path, { field: path, kind: "settings" });
  try {
    // Loaded only when a clouds.yaml is read: most runs never need a YAML parser.
    const { parse } = require("yaml") as typeof import("yaml");
    const doc = parse(text) as unknown;
    return doc && typeof doc === "object" ? (doc as Record<string, unknown>) : {};
  } catch (e) {
    // Not kept as the cause: a parse error's message quotes the lines around the fault, and in
    // secure.yaml those hold passwords and secrets. Its first line has the position.
    throw new ConfigError(
      path,
      `cannot read this YAML file (${(e as Error).message.split("\n")[0]}); fix or remove it`,
    );
  }
}

function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    // a YAML key __proto__ is no setting: never let it reach the prototype
    if (k === "__proto__") continue;
    const prev = Object.hasOwn(out, k) ? out[k] : undefined;
    out[k] =
      v &&
      typeof v === "object" &&
      !Array.isArray(v) &&
      prev &&
      typeof prev === "object" &&
      !Array.isArray(prev)
        ? deepMerge(prev as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

/** fromCloudsYaml reads one cloud from clouds.yaml, merged with its secure.yaml entry. */
export function fromCloudsYaml(
  cloud: string,
  env: NodeJS.ProcessEnv = process.env,
  setting = "OS_CLOUD",
): Fields {
  const cloudsPath = configSearchPath("clouds", env).find((p) => existsSync(p));
  if (!cloudsPath) {
    throw new ConfigError(
      setting,
      `cloud "${cloud}" was asked for but no clouds.yaml was found (looked in ${configSearchPath("clouds", env).join(", ")})`,
    );
  }
  const clouds = (readYaml(cloudsPath)["clouds"] ?? {}) as Record<string, Record<string, unknown>>;
  let entry = ownValue(clouds, cloud);
  if (!entry) {
    const names = Object.keys(clouds);
    throw new ConfigError(
      setting,
      `cloud "${cloud}" is not in ${cloudsPath} (it has: ${names.length ? names.join(", ") : "none"})`,
    );
  }
  const securePath = configSearchPath("secure", env).find((p) => existsSync(p));
  if (securePath) {
    const secure = (readYaml(securePath)["clouds"] ?? {}) as Record<string, Record<string, unknown>>;
    const extra = ownValue(secure, cloud);
    if (extra) entry = deepMerge(entry, extra);
  }
  const auth = (ownValue(entry, "auth") ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [field, key] of Object.entries(CLOUD_AUTH_KEYS)) {
    const v = ownValue(auth, key as string);
    if (v !== undefined && v !== null && v !== "") out[field] = String(v);
  }
  if (typeof entry["auth_type"] === "string") out["authType"] = entry["auth_type"];
  if (typeof entry["region_name"] === "string") out["regionName"] = entry["region_name"];
  if (typeof entry["interface"] === "string") out["interface"] = entry["interface"];
  if (typeof entry["cacert"] === "string") out["caCert"] = entry["cacert"];
  if (entry["verify"] === false || entry["insecure"] === true) out["insecure"] = true;
  return out as Fields;
}

function merge(...layers: Fields[]): Fields {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [k, v] of Object.entries(layer)) {
      if (v !== undefined && v !== "" && out[k] === undefined) out[k] = v;
    }
  }
  return out as Fields;
}

function authMethodOf(f: Fields): AuthMethod {
  const type = (f.authType ?? "").toLowerCase().replace(/^v3/, "").replace(/[-_]/g, "");
  const wantsAppCred =
    type === "applicationcredential" ||
    (type === "" && (f.applicationCredentialId !== undefined || f.applicationCredentialName !== undefined));
  if (type !== "" && type !== "applicationcredential" && type !== "password") {
    throw new ConfigError(
      "authType",
      `"${f.authType}" is not supported; use v3applicationcredential or password (OS_AUTH_TYPE)`,
    );
  }
  if (wantsAppCred) {
    if (!f.applicationCredentialSecret) {
      throw new ConfigError(
        "applicationCredentialSecret",
        "missing; give the application credential secret (OS_APPLICATION_CREDENTIAL_SECRET), shown once when the credential was created",
      );
    }
    return validateAuth(authMethodFields("application_credential", f));
  }
  if (f.password === undefined) {
    if (f.username === undefined && f.userId === undefined) {
      throw new ConfigError(
        "credentials",
        "none found; give an application credential (OS_APPLICATION_CREDENTIAL_ID and OS_APPLICATION_CREDENTIAL_SECRET), a user and password (OS_USERNAME, OS_PASSWORD, ...), or a cloud (OS_CLOUD)",
      );
    }
    throw new ConfigError("password", "missing; give the user's password (OS_PASSWORD)");
  }
  return validateAuth(authMethodFields("password", f));
}

/**
 * resolveIdentitySettings merges explicit arguments, `OS_*` environment variables and the
 * clouds.yaml cloud (arguments win), and validates the result before any request.
 *
 * @example
 * const s = resolveIdentitySettings({ cloud: "prod" });
 * const token = await issueToken({ authUrl: s.authUrl, transport: s.transport }, s.auth);
 */
export function resolveIdentitySettings(
  args: IdentityArgs = {},
  env: NodeJS.ProcessEnv = process.env,
): IdentitySettings {
  const { f, authUrl, transport, sourceOf } = endpointOf(args, env);
  const auth = namedBySource(() => authMethodOf(f), sourceOf);
  const out: IdentitySettings = { authUrl, auth, transport };
  if (f.regionName) out.regionName = f.regionName;
  if (f.interface) out.interface = f.interface;
  return out;
}

/**
 * resolveIdentityEndpoint is {@link resolveIdentitySettings} without the credential: the identity
 * address and transport, for calls that authenticate with a token (revoking one, checking one).
 */
export function resolveIdentityEndpoint(
  args: IdentityArgs = {},
  env: NodeJS.ProcessEnv = process.env,
): { authUrl: string; transport: TransportOptions } {
  const { authUrl, transport } = endpointOf(args, env);
  return { authUrl, transport };
}

/**
 * namedBySource runs `fn` and names a setting it refuses where the value came from: the argument, the
 * environment variable, or the clouds.yaml key (`OS_AUTH_URL: must be an http(s) URL`).
 */
function namedBySource<T>(fn: () => T, sourceOf: (field: string) => string): T {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof ConfigError) || e.constructor !== ConfigError || sourceOf(e.field) === e.field)
      throw e;
    throw new ConfigError(sourceOf(e.field), e.reason, { cause: e.cause });
  }
}

function endpointOf(args: IdentityArgs, env: NodeJS.ProcessEnv) {
  const { timeouts, retry, cloud: argCloud, names, ...explicit } = args;
  const envFields = fromEnv(env);
  const cloud = argCloud ?? env["OS_CLOUD"];
  const cloudFields = cloud
    ? fromCloudsYaml(cloud, env, argCloud !== undefined ? settingName(names, "cloud") : "OS_CLOUD")
    : {};
  // a value the caller gave is named in the caller's words (`authUrl`, or the command line's --os-auth-url)
  const sourceOf = (field: string): string => {
    const key = field as keyof Fields;
    if (!(key in ENV_NAMES)) return field;
    if (explicit[key] !== undefined) return settingName(names, field);
    const named = ENV_NAMES[key].find((n) => env[n] !== undefined && env[n] !== "");
    if (named && envFields[key] !== undefined) return named;
    const cloudKey = CLOUD_AUTH_KEYS[key];
    if (cloudFields[key] !== undefined && cloudKey) return `clouds.yaml clouds.${cloud}.auth.${cloudKey}`;
    return field;
  };
  const f = merge(explicit, envFields, cloudFields);
  if (!f.authUrl) {
    const authUrl = settingName(names, "authUrl");
    throw new ConfigError(
      authUrl,
      `missing; give the identity address (${authUrl} or OS_AUTH_URL), or name a cloud of clouds.yaml (${settingName(names, "cloud")} or OS_CLOUD)`,
    );
  }
  const authUrl = normalizeAuthUrl(f.authUrl, sourceOf("authUrl"));
  const transport: TransportOptions = {};
  if (f.caCert) transport.caCert = f.caCert;
  if (f.insecure) transport.insecure = true;
  if (timeouts) transport.timeouts = timeouts;
  if (retry !== undefined) transport.retry = retry;
  if (names) transport.names = names;
  return { f, authUrl, transport, sourceOf };
}

/** IdentityFields are identity settings as plain strings, before validation. */
export type IdentityFields = Fields;

/**
 * identityDefaults returns what the environment provides — `OS_*` variables, then the clouds.yaml
 * cloud named by `cloud` or `OS_CLOUD` — for callers that fill in fields the user did not give.
 */
export function identityDefaults(cloud?: string, env: NodeJS.ProcessEnv = process.env): IdentityFields {
  const name = cloud ?? env["OS_CLOUD"];
  return merge(fromEnv(env), name ? fromCloudsYaml(name, env) : {});
}

export { type BillingArgs, type ConfigSource, resolveBillingSettings } from "./billing/settings";
