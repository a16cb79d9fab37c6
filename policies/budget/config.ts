/**
 * The pack's configuration: the config file's settings (one JSON Schema, built from the file's zod
 * schema) plus what only the pack needs — what to do when billing is unreachable and the request
 * timeout. The policy SDK does not fill `configSchema` defaults (the CLI does), so every default is
 * applied in code too.
 *
 * Which project a policy checks, first found wins:
 * 1. the policy's config, `projectId` or `projects` (set by whoever enforces the pack);
 * 2. the stack tag `costgate:projectId` (`4242`, or `4242,1001`): one published pack serves every
 *    stack of an organization, each stack naming its own project, without per-stack pack config;
 * 3. `COSTGATE_PROJECT_ID` in the environment of the run.
 * The pack config wins over the tag because a stack's owners can edit its tags: a tag must not steer
 * a gate its administrator aimed at a project.
 */
import type { PolicyConfigSchema } from "@pulumi/policy";
import {
  type BudgetConfig,
  ConfigError,
  costgateConfigJsonSchema,
  parseCostgateConfig,
  parseProjectId,
  parseProjectIds,
  type RateCard,
  resolveProduct,
  resolveProjects,
} from "costgate/budget";

/** STACK_TAG is the stack tag that names the project(s) of a stack. */
export const STACK_TAG = "costgate:projectId";

/** Settings every budget policy takes. */
export interface CommonConfig {
  /** The project to check. Default: the stack tag `costgate:projectId`, then `COSTGATE_PROJECT_ID`. */
  projectId?: number;
  /**
   * Several projects, each with its own thresholds: `{ "4242": { "minBalance": 5000 } }`, or a list:
   * `[4242, 1001]` or `[{ "projectId": 4242, "minBalance": 5000 }]`.
   */
  projects?: Record<string, Record<string, unknown>> | (number | string | Record<string, unknown>)[];
  /** 1|openstack, 2|object-storage, 3|vmware. Default `COSTGATE_PRODUCT`, then openstack. */
  product?: string | number;
  /** When billing cannot be read: "fail" (the policy reports a violation) or "advise" (it stays quiet; billing-available warns). Default "fail". */
  onBillingError?: "fail" | "advise";
  /** Timeout of each billing request, in seconds. Default 20. */
  timeoutSeconds?: number;
  /**
   * Days of billing the run reads for each project: the longest window of any enabled policy
   * (`costgate policy-config` writes it), so one read serves them all. Default: this policy's own.
   */
  historyDays?: number;
  /** Prices of planned resources; see cost.ts. */
  rateCard?: RateCard;
  /** The currency named after each message, e.g. EUR. */
  currency?: string;
}

/** The defaults, applied in code. */
export const COMMON_DEFAULTS = { onBillingError: "fail", timeoutSeconds: 20 } as const;

type Properties = PolicyConfigSchema["properties"];

/** The settings only the pack has. */
const PACK_ONLY: Properties = {
  onBillingError: {
    type: "string",
    enum: ["fail", "advise"],
    default: COMMON_DEFAULTS.onBillingError,
    description:
      'When billing cannot be read: "fail" (the policy reports a violation) or "advise" (it stays quiet; billing-available warns).',
  },
  timeoutSeconds: {
    type: "number",
    minimum: 1,
    maximum: 300,
    default: COMMON_DEFAULTS.timeoutSeconds,
    description: "Timeout of each billing request, in seconds.",
  },
  historyDays: {
    type: "integer",
    minimum: 1,
    maximum: 366,
    description:
      "Days of billing the run reads for each project: the longest trailingDays or spikeWindowDays of any enabled policy (costgate policy-config writes it), so one read serves every policy.",
  },
};

/** The file's settings that the pack says another way: `levels` is each policy's enforcementLevel. */
const NOT_IN_PACK = new Set(["$schema", "levels"]);

/** The settings every policy takes, whatever rule it runs. */
const COMMON_SETTINGS = ["projectId", "projects", "product", "currency"];

let fileProperties: Properties | undefined;

/**
 * packProperties is every setting of the config file (its JSON Schema in draft 7, the dialect Pulumi
 * validates pack config with), but `$schema` and `levels`, plus the pack's own. `projects` also takes
 * a list of bare ids (`[4242, "1001"]`), as the pack always has. Built once per process.
 */
export function packProperties(): Properties {
  if (fileProperties) return fileProperties;
  const file = costgateConfigJsonSchema("draft-7")["properties"] as Properties;
  const out: Properties = {};
  for (const [k, v] of Object.entries(file)) if (!NOT_IN_PACK.has(k)) out[k] = v;
  const projects = out["projects"] as { anyOf?: unknown[]; description?: string };
  out["projects"] = {
    ...projects,
    anyOf: [
      ...(projects.anyOf ?? []),
      {
        type: "array",
        minItems: 1,
        items: { type: ["integer", "string"], pattern: "^\\s*[1-9][0-9]*\\s*$", minimum: 1 },
      },
    ],
  } as Properties[string];
  fileProperties = { ...out, ...PACK_ONLY };
  return fileProperties;
}

/**
 * policyConfigSchema is one policy's `configSchema`: the common settings, the pack's own, the rate card
 * when the policy prices a change, and the settings its rule reads.
 */
export function policyConfigSchema(
  settings: readonly (keyof BudgetConfig)[],
  priced: boolean,
): PolicyConfigSchema {
  const all = packProperties();
  const names = [...COMMON_SETTINGS, ...Object.keys(PACK_ONLY), ...(priced ? ["rateCard"] : []), ...settings];
  const properties: Properties = {};
  for (const k of names) {
    const v = all[k];
    if (v) properties[k] = v;
  }
  return { properties };
}

/** A project to check and the thresholds that apply to it. */
export interface ProjectTarget {
  projectId: number;
  /** The policy's thresholds with the project's own overrides applied. */
  config: Record<string, unknown>;
}

/** Where the projects of a run may come from besides the policy's config. */
export interface TargetSources {
  /** The stack's tags (the SDK's `args.stackTags`); `costgate:projectId` names the project. */
  stackTags?: ReadonlyMap<string, string> | undefined;
  env?: NodeJS.ProcessEnv;
}

/** The pack's settings that are not the config file's: taken off before the file's schema reads the rest. */
const PACK_KEYS = ["onBillingError", "timeoutSeconds", "historyDays", "enforcementLevel"];

/**
 * asFileConfig is a policy's config as the config file would say it: without the pack's own settings,
 * and with a list of bare ids (`[4242, "1001"]`, which the pack has always taken) as a list of projects.
 */
function asFileConfig(config: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(config)) if (!PACK_KEYS.includes(k)) out[k] = v;
  const projects = out["projects"];
  if (Array.isArray(projects)) {
    out["projects"] = projects.map((p, i) =>
      p !== null && typeof p === "object" ? p : { projectId: parseProjectId(p, `projects[${i}]`) },
    );
  }
  return out;
}

/**
 * projectTargets lists the projects a policy checks, each with its thresholds, by costgate's one
 * resolver of targets (the one `costgate check` uses, so the pack and the config file take the same
 * forms: `projects` as a list or as a map keyed by project id): the policy config's `projects` or
 * `projectId`, else the stack tag `costgate:projectId`, else `COSTGATE_PROJECT_ID` (see the top of
 * this file for why in that order). The config is validated by the config file's schema; a bad field
 * is a `ConfigError` naming it (`policy config: projects[0].minBalance: must be 0 or more; got -5`).
 */
export function projectTargets(
  config: Record<string, unknown>,
  { stackTags, env = process.env }: TargetSources = {},
): ProjectTarget[] {
  const file = parseCostgateConfig(asFileConfig(config), "policy config");
  const tag = stackTags?.get(STACK_TAG);
  const named = file.projects !== undefined || file.projectId !== undefined;
  const projectIds =
    !named && tag !== undefined && tag.trim() !== ""
      ? parseProjectIds(tag, `the stack tag ${STACK_TAG}`)
      : undefined;
  const { targets } = resolveProjects({ file, env, ...(projectIds ? { projectIds } : {}) });
  if (targets.length === 0) {
    throw new ConfigError(
      "projectId",
      `missing; name the project in the policy config (projectId, or projects for several), tag the stack ${STACK_TAG}, or set COSTGATE_PROJECT_ID`,
    );
  }
  const shared = file.currency === undefined ? {} : { currency: file.currency };
  return targets.map((t) => ({ projectId: t.projectId, config: { ...t.config, ...shared } }));
}

/**
 * packProduct is the product the pack reads billing for, from the one resolver of targets (resolveProduct):
 * the policy config's `product`, else COSTGATE_PRODUCT, else openstack. A product it refuses is kept as
 * given: the billing read refuses it too, and the policy reports that as billing it could not read.
 */
export function packProduct(config: { product?: string | number }, env = process.env): number | string {
  try {
    return resolveProduct({ product: config.product, env });
  } catch (e) {
    if (e instanceof ConfigError) return String(config.product ?? env["COSTGATE_PRODUCT"]);
    throw e;
  }
}
