/**
 * AppCredentialToken and PasswordToken for the plugin: the engine's property maps in, token-impl.ts (the
 * implementation the TypeScript dynamic resources run) in the middle, property maps with secret envelopes out.
 * @internal
 */
import { ConfigError, isConfigError } from "../errors";
import { IDENTITY_FIELDS } from "../identity/fields";
import { parseDuration } from "../resources/duration";
import * as impl from "../resources/token-impl";
import { type IdentityFields, identityDefaults } from "../settings";
import type { ProviderConfig } from "./config";
import { type Failure, objectFailures, packageSchema } from "./schema";
import { conceal, isUnknown, type Props, UNKNOWN } from "./values";

/** RESOURCE_TYPES: the resources the plugin serves, with the auth method of each (scripts/gen-schema.js describes each). */
export const RESOURCE_TYPES = {
  "costgate:index:AppCredentialToken": "application_credential",
  "costgate:index:PasswordToken": "password",
} as const satisfies Record<string, impl.TokenInputs["authType"]>;

export type ResourceType = keyof typeof RESOURCE_TYPES;

/** Properties stored as secrets: the token and every secret identity field. */
export const SECRET_KEYS = ["token", ...IDENTITY_FIELDS.filter((f) => f.secret).map((f) => f.name)];

/** The outputs the schema declares (the same for both resources). */
function outputKeys(type: ResourceType): string[] {
  return Object.keys(packageSchema().resources[type]?.properties ?? {});
}

/**
 * resourceType reads the type from the request, or from the URN
 * (`urn:pulumi:<stack>::<project>::<parent types$>type::<name>`); one the plugin does not serve is refused.
 */
export function resourceType(type: string, urn: string): ResourceType {
  let t = type;
  if (!t) {
    const parts = urn.split("::");
    t = (parts[2] ?? "").split("$").pop() ?? "";
  }
  if (!Object.hasOwn(RESOURCE_TYPES, t)) {
    throw new ConfigError(
      "type",
      `"${t}" is not a resource of costgate; it has ${Object.keys(RESOURCE_TYPES).join(", ")}`,
    );
  }
  return t as ResourceType;
}

/**
 * check turns the program's inputs into the resource's inputs, as the TypeScript resources do: arguments
 * first, then the provider's configuration, then `OS_*` and clouds.yaml (token-impl `fallbacks`); then
 * token-impl's own check. Failures name the property.
 */
export function check(
  type: ResourceType,
  news: Props,
  config: ProviderConfig,
  env: NodeJS.ProcessEnv = process.env,
): { inputs: Props; failures: Failure[] } {
  const spec = packageSchema().resources[type];
  const failures = spec
    ? objectFailures(news, { properties: spec.inputProperties, required: spec.requiredInputs ?? [] })
    : [];
  if (failures.length > 0) return { inputs: news, failures };
  const authType = RESOURCE_TYPES[type];
  const { renewBefore, cloud, ...given } = news as Props & { renewBefore?: number | string; cloud?: string };
  const inputs: Props = { authType, ...given };
  // a null is Pulumi's "not set"
  if (renewBefore !== undefined && renewBefore !== null && !isUnknown(renewBefore)) {
    try {
      inputs["renewBeforeSeconds"] = parseDuration(renewBefore, "renewBefore");
    } catch (e) {
      if (!isConfigError(e)) throw e;
      return { inputs: news, failures: [{ property: "renewBefore", reason: e.message }] };
    }
  } else if (renewBefore !== undefined && renewBefore !== null) inputs["renewBeforeSeconds"] = UNKNOWN;
  if (cloud !== undefined) inputs["cloud"] = cloud;
  if (inputs["timeoutSeconds"] === undefined && config.timeoutSeconds !== undefined)
    inputs["timeoutSeconds"] = config.timeoutSeconds;
  // a cloud unknown during preview: no fallbacks (token-impl's check waits for known values)
  const cloudName = typeof cloud === "string" ? cloud : config.cloud;
  let env0: IdentityFields = {};
  if (!isUnknown(cloud)) {
    try {
      env0 = identityDefaults(cloudName, env);
    } catch (e) {
      if (!isConfigError(e)) throw e;
      const property = cloudName !== undefined && e.field === "OS_CLOUD" ? "cloud" : e.field;
      const reason = property === e.field ? e.message : `${property}: ${e.reason}`;
      return { inputs: news, failures: [{ property, reason }] };
    }
  }
  // the provider's configuration sits between the arguments and the environment
  const layered = {
    ...env0,
    ...(config.authUrl !== undefined ? { authUrl: config.authUrl } : {}),
    ...(config.caCert !== undefined ? { caCert: config.caCert } : {}),
    ...(config.insecure !== undefined ? { insecure: config.insecure } : {}),
  };
  const fb = impl.fallbacks(authType, (k) => given[k] !== undefined, layered);
  for (const [k, v] of Object.entries(fb)) if (inputs[k] === undefined && v !== undefined) inputs[k] = v;
  const checked = impl.check(inputs as unknown as impl.TokenInputs);
  return {
    inputs: conceal(checked.inputs as unknown as Props, SECRET_KEYS),
    failures: checked.failures,
  };
}

/** PropertyDiff kinds of the protocol (provider.proto PropertyDiff.Kind). */
export const DiffKind = {
  ADD: 0,
  ADD_REPLACE: 1,
  DELETE: 2,
  DELETE_REPLACE: 3,
  UPDATE: 4,
  UPDATE_REPLACE: 5,
};

/** The inputs whose change is an update in place. */
const SETTING_KEYS = ["renewBeforeSeconds", "caCert", "insecure", "timeoutSeconds"] as const;

/**
 * diff is token-impl's diff with a detailed diff: each changed input, and `expiresAt` when the stored
 * token is inside its renewal window.
 */
export function diff(
  olds: Props,
  news: Props,
  now: number = Date.now(),
): { changes: boolean; replaces: string[]; detailed: Record<string, { kind: number; inputDiff: boolean }> } {
  const r = impl.diff(olds as Partial<impl.TokenOutputs>, news as unknown as impl.TokenInputs, now);
  const detailed: Record<string, { kind: number; inputDiff: boolean }> = {};
  for (const key of r.replaces) {
    if (key === "expiresAt") {
      detailed[key] = { kind: DiffKind.UPDATE_REPLACE, inputDiff: false };
      continue;
    }
    const had = olds[key] !== undefined && olds[key] !== null;
    const has = news[key] !== undefined && news[key] !== null;
    detailed[key] = {
      kind: had && has ? DiffKind.UPDATE_REPLACE : has ? DiffKind.ADD_REPLACE : DiffKind.DELETE_REPLACE,
      inputDiff: true,
    };
  }
  for (const key of SETTING_KEYS) {
    if ((olds[key] ?? null) === (news[key] ?? null)) continue;
    const had = olds[key] !== undefined && olds[key] !== null;
    const has = news[key] !== undefined && news[key] !== null;
    detailed[key] = {
      kind: had && has ? DiffKind.UPDATE : has ? DiffKind.ADD : DiffKind.DELETE,
      inputDiff: true,
    };
  }
  return { changes: r.changes, replaces: r.replaces, detailed };
}

/** previewOutputs are the inputs with every output unknown: a preview issues nothing. */
export function previewOutputs(type: ResourceType, inputs: Props): Props {
  const out: Props = { ...inputs };
  for (const k of outputKeys(type)) if (out[k] === undefined || k === "token") out[k] = UNKNOWN;
  return conceal(out, SECRET_KEYS);
}

/** create issues the token. */
export async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const r = await impl.create(inputs as unknown as impl.TokenInputs);
  return { id: r.id, outs: conceal(r.outs as unknown as Props, SECRET_KEYS) };
}

/** read validates the stored token: gone (no id) when Keystone no longer accepts it. */
export async function read(id: string, props: Props): Promise<{ id: string; outs?: Props }> {
  if (!props["token"]) {
    // an import: a token cannot be read back from its id (the audit id is all the state names)
    throw new ConfigError(
      "id",
      `a Keystone token cannot be imported by its id (${JSON.stringify(id).slice(0, 80)}): its value cannot be read back from Keystone; declare the resource and let \`pulumi up\` issue a new token`,
    );
  }
  const r = await impl.read(id, props as unknown as impl.TokenOutputs);
  if (!r.id || !r.props) return { id: "" };
  return { id: r.id, outs: conceal(r.props as unknown as Props, SECRET_KEYS) };
}

/** update takes the new settings; the token stays. */
export async function update(olds: Props, news: Props): Promise<Props> {
  const r = await impl.update(olds as unknown as impl.TokenOutputs, news as unknown as impl.TokenInputs);
  return conceal(r.outs as unknown as Props, SECRET_KEYS);
}

/** remove revokes the token. */
export async function remove(props: Props): Promise<void> {
  await impl.remove(props as unknown as impl.TokenOutputs);
}
