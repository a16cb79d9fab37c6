/**
 * The one answer to "which projects, with which thresholds, for which product": `costgate check`,
 * `report`, `cost`, `policy-config` and the policy pack all ask {@link resolveTargets}.
 *
 * The order, the same everywhere:
 * - projects: the ones named explicitly (a flag, the pack's stack tag), else the configuration's
 *   (`projects`, else `projectId`), else `COSTGATE_PROJECT_ID` (a comma list);
 * - a project's thresholds: the configuration's top-level ones, then its own entry in `projects` (rule by
 *   rule for `levels`), then the explicit overrides (flags);
 * - the product: the explicit one, else the configuration's `product`, else `COSTGATE_PRODUCT`, else
 *   openstack.
 *
 * The environment fills what the configuration leaves out; it never overrides what it says.
 */
import { type ProductId, parseProduct } from "../billing/products";
import { parseProjectIds } from "../billing/project-id";
import { BUDGET_KEYS, type BudgetConfig } from "./config";
import type { Level, RuleName } from "./types";

/**
 * What the resolver reads of a configuration: the shape of `CostgateConfig` (./config-file.ts) after
 * validation, `projects` as the list (the map form is read as the list), and of the pack's policy config.
 */
export interface TargetsConfig extends BudgetConfig {
  projectId?: number;
  projects?: (BudgetConfig & { projectId: number })[];
  product?: string | number;
}

/** A project to judge, with the thresholds that apply to it. */
export interface Target {
  projectId: number;
  config: BudgetConfig;
}

/** What {@link resolveTargets} reads; every field is optional. */
export interface TargetsInput {
  /** The configuration, already validated (`readCostgateConfig`, `parseCostgateConfig`). */
  file?: TargetsConfig;
  /** Thresholds laid over every project's (the command's flags); validated by the caller. */
  overrides?: BudgetConfig;
  /** The projects named explicitly: they replace the configuration's list (their entries still apply). */
  projectIds?: readonly number[];
  /** The product named explicitly: `1`–`3` or `openstack`, `object-storage`, `vmware`. */
  product?: string | number;
  /**
   * The names of the explicit settings, for errors: where `product` came from (default `product`).
   * The environment's are named by their variables.
   */
  names?: { product?: string };
  /** The environment read for `COSTGATE_PROJECT_ID` and `COSTGATE_PRODUCT` (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** What {@link resolveTargets} answers. */
export interface Targets {
  product: ProductId;
  /** The projects in the order named, each once; empty when none is named anywhere. */
  targets: Target[];
  /** Where the projects came from. */
  projectsFrom: "explicit" | "file" | "env" | "none";
}

/**
 * resolveTargets answers which projects to judge, each with its thresholds, and the product. It reads
 * nothing but its input (and `env`); it throws a `ConfigError` naming the setting for a project id or a
 * product that is not one (`COSTGATE_PROJECT_ID: "-1" is not a project id ...`).
 *
 * @example
 * resolveTargets({ file: { minBalance: 100, projects: [{ projectId: 7, minBalance: 500 }, { projectId: 8 }] },
 *   overrides: { monthlyBudget: 4000 } });
 * // { product: 1, projectsFrom: "file", targets: [
 * //   { projectId: 7, config: { minBalance: 500, monthlyBudget: 4000 } },
 * //   { projectId: 8, config: { minBalance: 100, monthlyBudget: 4000 } }] }
 */
export function resolveTargets(input: TargetsInput = {}): Targets {
  return { product: resolveProduct(input), ...resolveProjects(input) };
}

/** resolveProjects is {@link resolveTargets} without the product: the projects and their thresholds. */
export function resolveProjects(input: TargetsInput = {}): Omit<Targets, "product"> {
  const { file, overrides = {}, env = process.env } = input;
  const base = file ? budgetPart(file) : {};
  const own = new Map(file?.projects?.map((p) => [p.projectId, mergeBudget(base, budgetPart(p))]));
  const fromEnv = env["COSTGATE_PROJECT_ID"];
  let ids: readonly number[];
  let projectsFrom: Targets["projectsFrom"];
  if (input.projectIds !== undefined) [ids, projectsFrom] = [input.projectIds, "explicit"];
  else if (file?.projects) [ids, projectsFrom] = [file.projects.map((p) => p.projectId), "file"];
  else if (file?.projectId !== undefined) [ids, projectsFrom] = [[file.projectId], "file"];
  else if (fromEnv) [ids, projectsFrom] = [parseProjectIds(fromEnv, "COSTGATE_PROJECT_ID"), "env"];
  else [ids, projectsFrom] = [[], "none"];
  const targets = [...new Set(ids)].map((projectId) => ({
    projectId,
    config: mergeBudget(own.get(projectId) ?? base, overrides),
  }));
  return { targets, projectsFrom };
}

/** resolveProduct is the product of {@link resolveTargets}: explicit, the configuration's, the environment's, openstack. */
export function resolveProduct(input: TargetsInput = {}): ProductId {
  const env = input.env ?? process.env;
  if (input.product !== undefined) return parseProduct(input.product, input.names?.product ?? "product");
  if (input.file?.product !== undefined) return parseProduct(input.file.product, "product");
  const fromEnv = env["COSTGATE_PRODUCT"];
  if (fromEnv !== undefined) return parseProduct(fromEnv, "COSTGATE_PRODUCT");
  return 1;
}

/** budgetPart is the thresholds of a configuration or of one of its projects (the other fields left out). */
export function budgetPart(o: BudgetConfig): BudgetConfig {
  const out: Record<string, unknown> = {};
  for (const k of BUDGET_KEYS) if (o[k] !== undefined) out[k] = o[k];
  return out as BudgetConfig;
}

/** mergeBudget lays `over` on `base`; `levels` merge rule by rule. */
export function mergeBudget(base: BudgetConfig, over: BudgetConfig): BudgetConfig {
  const levels: Partial<Record<RuleName, Level>> = { ...base.levels, ...over.levels };
  const out: BudgetConfig = { ...base, ...over };
  if (Object.keys(levels).length > 0) out.levels = levels;
  else delete out.levels;
  return out;
}
