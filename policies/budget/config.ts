/**
 * The pack's configuration: which projects, which product, what to do when billing is unreachable,
 * and the optional rate card. The policy SDK does not fill `configSchema` defaults (the CLI does),
 * so every default is applied here too.
 */
import type { PolicyConfigSchema } from "@pulumi/policy";
import { ConfigError, type RateCard, rateCardJsonSchema } from "costgate/budget";

/** Settings every budget policy takes. */
export interface CommonConfig {
  /** The project to check. Default: `COSTGATE_PROJECT_ID` (a comma list for several). */
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
  /** Prices of planned resources; see cost.ts. */
  rateCard?: RateCard;
}

/** The defaults, applied in code. */
export const COMMON_DEFAULTS = { onBillingError: "fail", timeoutSeconds: 20 } as const;

/** commonProperties is the JSON schema of CommonConfig, for each policy's configSchema. */
export function commonProperties(withRateCard = false): PolicyConfigSchema["properties"] {
  const props: PolicyConfigSchema["properties"] = {
    projectId: { type: "integer", minimum: 1, description: "The project id; default COSTGATE_PROJECT_ID." },
    projects: {
      type: ["object", "array"],
      description:
        'Several projects, each with its own thresholds: { "4242": { "minBalance": 5000 } }, or [4242, 1001], or [{ "projectId": 4242, "minBalance": 5000 }].',
    },
    product: {
      type: ["string", "integer"],
      enum: ["openstack", "object-storage", "vmware", "1", "2", "3", 1, 2, 3],
      default: "openstack",
    },
    onBillingError: { type: "string", enum: ["fail", "advise"], default: COMMON_DEFAULTS.onBillingError },
    timeoutSeconds: { type: "number", minimum: 1, maximum: 300, default: COMMON_DEFAULTS.timeoutSeconds },
  };
  if (withRateCard) {
    // costgate's rate card schema (schema/rate-card.schema.json), without its $schema header
    const { $schema: _, ...card } = rateCardJsonSchema();
    props["rateCard"] = {
      ...card,
      description:
        "Prices of planned resources, as costgate cost reads them: { currency, flavors: { <name or id>: <per hour> | { month } }, powerStates, volumeGbMonth, volumeTypes, floatingIpHour, floatingIpMonth, types: { <type>: { hour | month | property + perUnitMonth } } }.",
    } as PolicyConfigSchema["properties"][string];
  }
  return props;
}

/** A project to check and the thresholds that apply to it. */
export interface ProjectTarget {
  projectId: number;
  /** The policy's thresholds with the project's own overrides applied. */
  config: Record<string, unknown>;
}

/** projectTargets lists the projects a policy checks: `projects`, else `projectId`, else env. */
export function projectTargets(
  config: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): ProjectTarget[] {
  const { projects, projectId, ...base } = config as CommonConfig & Record<string, unknown>;
  const parse = (v: unknown, field: string): number => {
    const n = typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n <= 0) {
      throw new ConfigError(
        field,
        `${JSON.stringify(v)} is not a project id; give a positive integer, e.g. 4242`,
      );
    }
    return n;
  };
  if (Array.isArray(projects) && projects.length > 0) {
    // [4242, 1001] or [{ projectId: 4242, minBalance: 5000 }, ...]
    return projects.map((p: unknown, i: number) => {
      if (p && typeof p === "object") {
        const { projectId: id, ...overrides } = p as Record<string, unknown>;
        return { projectId: parse(id, `projects.${i}.projectId`), config: { ...base, ...overrides } };
      }
      return { projectId: parse(p, `projects.${i}`), config: base };
    });
  }
  if (projects && typeof projects === "object" && Object.keys(projects).length > 0) {
    return Object.entries(projects).map(([id, overrides]) => ({
      projectId: parse(id, `projects.${id}`),
      config: { ...base, ...((overrides as Record<string, unknown> | null) ?? {}) },
    }));
  }
  if (projectId !== undefined) return [{ projectId: parse(projectId, "projectId"), config: base }];
  const fromEnv = env["COSTGATE_PROJECT_ID"];
  if (fromEnv)
    return fromEnv.split(",").map((id) => ({ projectId: parse(id, "COSTGATE_PROJECT_ID"), config: base }));
  throw new ConfigError(
    "projectId",
    "missing; name the project in the policy config (projectId, or projects for several) or set COSTGATE_PROJECT_ID",
  );
}
