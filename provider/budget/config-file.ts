/**
 * One configuration for the three surfaces of the gate — `costgate check`, `costgate report` and the
 * policy pack: which projects, which product, the thresholds (for all projects, and per project), and
 * the rate card. JSON or YAML, validated with zod; its JSON Schema ships as
 * `schema/costgate-config.schema.json`. Environment fills what the file leaves out
 * (`COSTGATE_PROJECT_ID`, `COSTGATE_PRODUCT`); it never overrides what the file says.
 */
import { z } from "zod";
import { type DataFileLimit, readDataFile } from "../data-file";
import { ConfigError } from "../errors";
import type { Assert, Exact } from "../exact";
import { currencySchema, type RateCard, rateCardSchema } from "../pricing/rate-card";
import {
  type BudgetConfig,
  budgetConfigSchema,
  configuredGates,
  RULE_SETTINGS,
  THRESHOLD_OF,
  zodToConfigError,
} from "./config";
import type { Level, RuleName } from "./types";

/** One project of the file: its id and the thresholds that differ from the file's. */
export interface ProjectEntry extends BudgetConfig {
  projectId: number;
}

/**
 * CostgateConfig is the file: thresholds at the top apply to every project; `projects` lists the
 * projects (each may override thresholds); `projectId` is the short form for one.
 *
 * @example
 * // costgate.yaml
 * // projectId: 4242
 * // monthlyBudget: 45000
 * // minRunwayDays: 14
 * // levels: { daily-spike: advisory }
 */
export interface CostgateConfig extends BudgetConfig {
  /** JSON Schema reference for editors; ignored. */
  $schema?: string;
  /** One project (default COSTGATE_PROJECT_ID). */
  projectId?: number;
  /** Several projects, each with its own overrides. */
  projects?: ProjectEntry[];
  /** 1|openstack, 2|object-storage, 3|vmware (default COSTGATE_PRODUCT, then openstack). */
  product?: string | number;
  /** Prices of planned resources, for the pack and `costgate cost` (see RateCard). */
  rateCard?: RateCard;
  /** The currency to name beside amounts in reports (`EUR`, `RUB`); the billing API does not say. */
  currency?: string;
}

const projectId = () =>
  z
    .number({ error: "must be a project id (a whole number)" })
    .int("must be a whole number")
    .positive("must be 1 or more")
    .max(Number.MAX_SAFE_INTEGER, "is too large for a project id");

/** @internal */
export function costgateConfigSchema() {
  const budget = budgetConfigSchema();
  // what callers write: no defaults filled in here (they are filled when each project is evaluated)
  const thresholds = z.object(
    Object.fromEntries(Object.entries(budget.shape).map(([k, v]) => [k, (v as z.ZodType).optional()])),
  ).shape as { [K in keyof typeof budget.shape]: z.ZodOptional<z.ZodType> };
  return z
    .object({
      $schema: z.string().optional(),
      projectId: projectId().optional(),
      projects: z
        .array(z.object({ projectId: projectId(), ...thresholds }).strict())
        .min(1, "lists no project")
        .optional(),
      product: z.union([z.string(), z.number()]).optional(),
      rateCard: rateCardSchema().optional(),
      currency: currencySchema().optional(),
      ...thresholds,
    })
    .strict()
    .refine((c) => !(c.projectId !== undefined && c.projects !== undefined), {
      message: "give projectId or projects, not both",
      path: ["projects"],
    });
}

type _SameFile = Assert<Exact<keyof CostgateConfig, keyof z.input<ReturnType<typeof costgateConfigSchema>>>>;

/**
 * costgateConfigJsonSchema is the file's JSON Schema (draft 2020-12), as shipped in
 * `schema/costgate-config.schema.json`.
 */
export function costgateConfigJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(costgateConfigSchema(), { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://github.com/costgate/costgate/blob/main/schema/costgate-config.schema.json",
    title: "costgate configuration",
    description:
      "Projects, product, budget thresholds and rate card for costgate check, costgate report and the costgate policy pack.",
    ...schema,
  };
}

/**
 * parseCostgateConfig validates a configuration object; `source` names it in errors
 * (`costgate.yaml: projects.0.minBalance: must be 0 or more`).
 */
export function parseCostgateConfig(value: unknown, source = "config"): CostgateConfig {
  const parsed = costgateConfigSchema().safeParse(value);
  if (!parsed.success) {
    const e = zodToConfigError(parsed.error, source);
    throw new ConfigError(
      e.field === source ? source : `${source}: ${e.field}`,
      e.message.slice(e.field.length + 2),
    );
  }
  return value as CostgateConfig;
}

/** readCostgateConfig reads and validates a JSON or YAML file (by its extension; JSON is YAML too). */
export function readCostgateConfig(path: string, limit?: DataFileLimit): CostgateConfig {
  return parseCostgateConfig(readDataFile(path, limit) ?? {}, path);
}

/** A project to check, with the thresholds that apply to it. */
export interface ConfiguredProject {
  projectId: number;
  config: BudgetConfig;
}

const BUDGET_KEYS = Object.keys(budgetConfigSchema().shape) as (keyof BudgetConfig)[];

/** budgetPart is the thresholds of a file or of one of its projects. */
export function budgetPart(o: Partial<CostgateConfig> | ProjectEntry): BudgetConfig {
  const out: Record<string, unknown> = {};
  for (const k of BUDGET_KEYS) if (o[k] !== undefined) out[k] = o[k];
  return out as BudgetConfig;
}

/** mergeBudget lays `over` on `base`; levels merge rule by rule. */
export function mergeBudget(base: BudgetConfig, over: BudgetConfig): BudgetConfig {
  const levels: Partial<Record<RuleName, Level>> = { ...base.levels, ...over.levels };
  const out: BudgetConfig = { ...base, ...over };
  if (Object.keys(levels).length > 0) out.levels = levels;
  else delete out.levels;
  return out;
}

/**
 * projectsOf lists the projects of a configuration with their thresholds: `projects`, else
 * `projectId`, else `COSTGATE_PROJECT_ID` (a comma list). Empty when none is named anywhere.
 */
export function projectsOf(c: CostgateConfig, env: NodeJS.ProcessEnv = process.env): ConfiguredProject[] {
  const base = budgetPart(c);
  if (c.projects)
    return c.projects.map((p) => ({ projectId: p.projectId, config: mergeBudget(base, budgetPart(p)) }));
  if (c.projectId !== undefined) return [{ projectId: c.projectId, config: base }];
  const fromEnv = env["COSTGATE_PROJECT_ID"];
  if (!fromEnv) return [];
  return fromEnv.split(",").map((raw) => {
    const id = Number(raw.trim());
    if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(id) || id < 1) {
      throw new ConfigError(
        "COSTGATE_PROJECT_ID",
        `"${raw}" is not a project id (a whole number, 1 or more)`,
      );
    }
    return { projectId: id, config: base };
  });
}

/** The policies of the pack that take thresholds, and the ones that only need a project. */
const PACK_RULES: RuleName[] = ["min-balance", "monthly-budget", "min-runway-days", "daily-spike"];

/**
 * policyPackConfig turns a configuration into the `--policy-pack-config` file Pulumi reads: each
 * budget policy gets the projects (or none, so that it reads `COSTGATE_PROJECT_ID` at run time), the
 * product and its thresholds; a policy whose threshold no project sets is disabled — the file did not
 * ask for it. A file that sets no threshold at all is refused: that pack would gate nothing.
 */
export function policyPackConfig(c: CostgateConfig): Record<string, Record<string, unknown>> {
  const perProject = c.projects?.map((p) => ({
    projectId: p.projectId,
    config: mergeBudget(budgetPart(c), budgetPart(p)),
  }));
  const all = perProject ?? [{ projectId: c.projectId, config: budgetPart(c) }];
  if (all.every((p) => configuredGates(p.config).length === 0)) {
    throw new ConfigError(
      "thresholds",
      "none is set, so the pack would let every deployment through: set minBalance, monthlyBudget or minRunwayDays",
    );
  }
  const out: Record<string, Record<string, unknown>> = {};
  for (const rule of PACK_RULES) {
    const threshold = rule === "daily-spike" ? undefined : THRESHOLD_OF[rule];
    const level = (p: { config: BudgetConfig }) => p.config.levels?.[rule];
    const wanted = all.filter(
      (p) => level(p) !== "disabled" && (threshold === undefined || p.config[threshold] !== undefined),
    );
    if (wanted.length === 0) {
      out[rule] = { enforcementLevel: "disabled" };
      continue;
    }
    const entry: Record<string, unknown> = {
      enforcementLevel: level(wanted[0]!) ?? (rule === "daily-spike" ? "advisory" : "mandatory"),
    };
    if (c.product !== undefined) entry["product"] = c.product;
    if (c.rateCard && (rule === "monthly-budget" || rule === "min-runway-days"))
      entry["rateCard"] = c.rateCard;
    const fields = (cfg: BudgetConfig) => {
      const f: Record<string, unknown> = {};
      for (const k of RULE_SETTINGS[rule]) if (cfg[k] !== undefined) f[k] = cfg[k];
      return f;
    };
    if (perProject) {
      entry["projects"] = Object.fromEntries(wanted.map((p) => [String(p.projectId), fields(p.config)]));
    } else {
      if (c.projectId !== undefined) entry["projectId"] = c.projectId;
      Object.assign(entry, fields(all[0]!.config));
    }
    out[rule] = entry;
  }
  out["billing-available"] = { enforcementLevel: "advisory" };
  return out;
}
