/**
 * One configuration for the three surfaces of the gate — `costgate check`, `costgate report` and the
 * policy pack: which projects, which product, the thresholds (for all projects, and per project), and
 * the rate card. JSON or YAML, validated with zod; its JSON Schema ships as
 * `schema/costgate-config.schema.json`. Environment fills what the file leaves out
 * (`COSTGATE_PROJECT_ID`, `COSTGATE_PRODUCT`); it never overrides what the file says.
 */
import type { z } from "zod";
import { type DataDocument, type DataFileLimit, readDataDocument } from "../data-file";
import { ConfigError, isZodWording } from "../errors";
import type { Assert, Exact } from "../exact";
import {
  currencySchema,
  isCurrency,
  type RateCard,
  rateCardSchema,
  rateCardSurelyValid,
} from "../pricing/rate-card";
import { zod } from "../zod";
import {
  type BudgetConfig,
  budgetConfigSchema,
  budgetSettingsSurelyValid,
  configuredGates,
  describedProperties,
  plainObject,
  zodToConfigError,
} from "./config";
import { RULE_INFO } from "./rule-info";
import { budgetPart, mergeBudget, resolveProjects, type Target } from "./targets";

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
  /**
   * Several projects, each with its own overrides. A file may also key them by project id, as the
   * pack's config does (`projects: { "4242": { monthlyBudget: 5000 } }`); they are read as this list.
   */
  projects?: ProjectEntry[];
  /** 1|openstack, 2|object-storage, 3|vmware (default COSTGATE_PRODUCT, then openstack). */
  product?: string | number;
  /** Prices of planned resources, for the pack and `costgate cost` (see RateCard). */
  rateCard?: RateCard;
  /** The currency to name beside amounts in reports (`EUR`, `RUB`); the billing API does not say. */
  currency?: string;
}

const projectId = () =>
  zod()
    .number({ error: "must be a project id (a whole number)" })
    .int("must be a whole number")
    .positive("must be 1 or more")
    .max(Number.MAX_SAFE_INTEGER, "is too large for a project id");

/**
 * costgateConfigSchema is the file's schema. `projects` is a list there; `form: "file"` also lets it be
 * a map keyed by project id, as the shipped JSON Schema says (the map is turned into the list before
 * validation, so that each project is validated once, by one schema).
 * @internal
 */
export function costgateConfigSchema(form: "list" | "file" = "list") {
  const z = zod();
  const budget = budgetConfigSchema();
  // what callers write: no defaults filled in here (they are filled when each project is evaluated)
  const thresholds = z.object(
    Object.fromEntries(Object.entries(budget.shape).map(([k, v]) => [k, (v as z.ZodType).optional()])),
  ).shape as { [K in keyof typeof budget.shape]: z.ZodOptional<z.ZodType> };
  const list = z
    .array(z.object({ projectId: projectId(), ...thresholds }).strict(), {
      error: "must be a list of projects",
    })
    .min(1, "lists no project");
  const projects =
    form === "list"
      ? list
      : z.union([
          list,
          z.record(z.string().regex(/^[1-9][0-9]*$/), z.object(thresholds).strict().nullable()),
        ]);
  return z
    .object({
      $schema: z.string({ error: "must be the address of a JSON Schema" }).optional(),
      projectId: projectId().optional(),
      projects: projects.optional(),
      product: z
        .union([z.string(), z.number()], {
          error: "must be openstack, object-storage or vmware (or 1, 2, 3)",
        })
        .optional(),
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

/** What each field of the file that is not a threshold does, for the JSON Schemas' descriptions. */
const FILE_WORDS: Record<string, string> = {
  projectId: "One project to check (default COSTGATE_PROJECT_ID).",
  projects:
    'Several projects, each with its own thresholds: a list, [{ projectId: 4242, monthlyBudget: 45000 }], or a map keyed by project id, { "4242": { monthlyBudget: 45000 } }.',
  product: "openstack (1), object-storage (2) or vmware (3); default COSTGATE_PRODUCT, then openstack.",
  rateCard:
    "Prices of planned resources, for costgate cost and the policy pack (schema/rate-card.schema.json).",
  currency: "The currency named beside amounts, e.g. EUR; the billing API does not say.",
};

/**
 * costgateConfigJsonSchema is the file's JSON Schema (draft 2020-12), as shipped in
 * `schema/costgate-config.schema.json`. `target: "draft-7"` gives the same schema in draft 7, the
 * dialect Pulumi validates a policy pack's `configSchema` with (the pack's schema is built from it).
 */
export function costgateConfigJsonSchema(
  target: "draft-2020-12" | "draft-7" = "draft-2020-12",
): Record<string, unknown> {
  const schema = zod().toJSONSchema(costgateConfigSchema("file"), {
    io: "input",
    unrepresentable: "any",
    target,
  }) as Record<string, unknown> & { properties?: Record<string, unknown> };
  const properties = describedProperties(schema.properties ?? {});
  for (const [k, words] of Object.entries(FILE_WORDS)) {
    const v = properties[k];
    if (v && typeof v === "object") properties[k] = { description: words, ...v };
  }
  const projects = properties["projects"] as {
    anyOf?: { items?: { properties?: Record<string, unknown> } }[];
  };
  for (const form of projects?.anyOf ?? []) {
    if (form.items?.properties) form.items.properties = describedProperties(form.items.properties);
  }
  if (target === "draft-7") return { ...schema, properties };
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://github.com/costgate/costgate/blob/main/schema/costgate-config.schema.json",
    title: "costgate configuration",
    description:
      "Projects, product, budget thresholds and rate card for costgate check, costgate report and the costgate policy pack.",
    ...schema,
    properties,
  };
}

/** What a field of the file holds, in words, for a value of the wrong kind. */
const EXPECTED: Record<string, string> = {
  minBalance: "a number of currency units, e.g. 5000",
  monthlyBudget: "a number of currency units, e.g. 45000",
  extraDailyCost: "a number of currency units a day, e.g. 12.5",
  minRunwayDays: "a number of days, e.g. 14",
  trailingDays: "a whole number of days, e.g. 7",
  spikeWindowDays: "a whole number of days, e.g. 14",
  spikeFactor: "a number, 1 or more, e.g. 2",
  includeBonuses: "true or false",
  forecast: "true or false",
  projectId: "a project id: a positive integer, e.g. 4242",
  quantile: "p50, p80 or p90",
  forecastMethod: "model or trailing-mean",
  levels: "the level of each rule, e.g. levels: { daily-spike: advisory }",
};
const PROJECTS_FORMS =
  'a list, e.g. projects: [{ projectId: 4242, monthlyBudget: 45000 }], or a map keyed by project id, e.g. projects: { "4242": { monthlyBudget: 45000 } }';

/**
 * shown is a value as the file gave it, when short: a long text is described, not quoted (a token
 * pasted into the wrong field must not reach a CI log), and a list or mapping by its kind.
 */
function shown(v: unknown): string {
  if (v === undefined) return "nothing";
  if (Array.isArray(v)) return v.length === 0 ? "an empty list" : `a list of ${v.length}`;
  if (v !== null && typeof v === "object") return "a mapping";
  if (typeof v === "string" && v.length > 24) return `a text of ${v.length} characters`;
  return JSON.stringify(v) ?? String(v);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const k of path) {
    if (v === null || typeof v !== "object" || !Object.hasOwn(v, k)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** fieldName writes a path as the file reads: projects[0].monthlyBudget, projects["4242"].minBalance. */
function fieldName(path: readonly PropertyKey[], mapKeys?: string[]): string {
  let out = "";
  path.forEach((k, i) => {
    if (i === 1 && path[0] === "projects" && typeof k === "number" && mapKeys)
      out += `[${JSON.stringify(mapKeys[k])}]`;
    else if (typeof k === "number") out += `[${k}]`;
    else out += out === "" ? String(k) : `.${String(k)}`;
  });
  return out;
}

/**
 * projectsAsList turns the map form of `projects` into the list, with each project's key as its
 * `projectId` (own keys only: `__proto__` or `constructor` are refused as any other non-id key).
 */
function projectsAsList(
  map: Record<string, unknown>,
  at: (path: PropertyKey[]) => string,
): {
  list: unknown[];
  keys: string[];
} {
  const keys = Object.keys(map);
  const list = keys.map((key) => {
    const entry = map[key] ?? {};
    const where = at(["projects", key]);
    if (!/^[1-9][0-9]*$/.test(key) || !Number.isSafeInteger(Number(key))) {
      throw new ConfigError(
        `${where}projects[${JSON.stringify(key)}]`,
        `the key must be a project id (a positive integer, e.g. "4242"); write ${PROJECTS_FORMS}`,
      );
    }
    if (typeof entry !== "object" || Array.isArray(entry)) {
      throw new ConfigError(
        `${where}projects[${JSON.stringify(key)}]`,
        `expected the project's thresholds, e.g. { monthlyBudget: 45000 }, or nothing; got ${shown(entry)}`,
      );
    }
    if (Object.hasOwn(entry, "projectId")) {
      throw new ConfigError(
        `${at(["projects", key, "projectId"])}projects[${JSON.stringify(key)}].projectId`,
        "the key already names the project; remove projectId",
      );
    }
    return { projectId: Number(key), ...entry };
  });
  return { list, keys };
}

const isProjectId = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 1;
const isProjectsKey = (k: string) => k === "projectId";

/** FILE_SURELY_VALID: what the file's schema surely accepts, per field other than the thresholds. */
const FILE_SURELY_VALID: Readonly<Record<string, (v: unknown) => boolean>> = {
  $schema: (v) => typeof v === "string",
  projectId: isProjectId,
  projects: (v) => {
    if (!Array.isArray(v) || v.length === 0) return false;
    // by index, not every(): a hole of a sparse array is an undefined item, which the schema refuses
    for (let i = 0; i < v.length; i++) {
      const p: unknown = v[i];
      if (!plainObject(p) || !isProjectId(p["projectId"]) || !budgetSettingsSurelyValid(p, isProjectsKey))
        return false;
    }
    return true;
  },
  product: (v) => typeof v === "string" || (typeof v === "number" && Number.isFinite(v)),
  rateCard: rateCardSurelyValid,
  currency: isCurrency,
};
const isFileKey = (k: string) => Object.hasOwn(FILE_SURELY_VALID, k);

/**
 * configSurelyValid tells a configuration (its projects as the list) the file's schema surely accepts: a
 * subset of it, held side by side with it in test/hostile/perf.test.ts. Such a file is read without zod.
 * @internal
 */
export function configSurelyValid(v: unknown): boolean {
  if (!plainObject(v) || (v["projectId"] !== undefined && v["projects"] !== undefined)) return false;
  for (const k of Object.keys(v)) {
    const ok = FILE_SURELY_VALID[k];
    if (ok && v[k] !== undefined && !ok(v[k])) return false;
  }
  return budgetSettingsSurelyValid(v, isFileKey);
}

/**
 * parseCostgateConfig validates a configuration object; `source` names it in errors, with the line when
 * the object was read from a file (`costgate.yaml:4: projects[0].minBalance: must be 0 or more; got -5`).
 * `projects` may be a list or a map keyed by project id; the result always has the list.
 */
export function parseCostgateConfig(
  value: unknown,
  source = "config",
  lineOf: DataDocument["lineOf"] = () => undefined,
): CostgateConfig {
  const at = (path: readonly PropertyKey[]) => {
    const line = lineOf(path);
    return line === undefined ? `${source}: ` : `${source}:${line}: `;
  };
  let input = value;
  let mapKeys: string[] | undefined;
  const projects = (value as { projects?: unknown } | null)?.projects;
  if (projects !== null && typeof projects === "object" && !Array.isArray(projects)) {
    const { list, keys } = projectsAsList(projects as Record<string, unknown>, at);
    if (list.length === 0)
      throw new ConfigError(`${at(["projects"])}projects`, `lists no project; write ${PROJECTS_FORMS}`);
    input = { ...(value as object), projects: list };
    mapKeys = keys;
  }
  // surely valid: no zod; it is loaded only to name what is wrong
  if (configSurelyValid(input)) return input as CostgateConfig;
  const parsed = costgateConfigSchema().safeParse(input);
  if (parsed.success) return input as CostgateConfig;
  const issue = parsed.error.issues[0];
  if (!issue) throw new ConfigError(source, "is not a valid configuration");
  // the path in the file: a project of the map form is projects.<its key>
  const filePath =
    mapKeys && issue.path[0] === "projects" && typeof issue.path[1] === "number"
      ? ["projects", mapKeys[issue.path[1]] ?? "", ...issue.path.slice(2)]
      : issue.path;
  if (issue.code === "invalid_type" && issue.path.length === 0) {
    throw new ConfigError(
      source,
      `must be a mapping of fields, e.g. monthlyBudget: 45000; got ${shown(value)}`,
    );
  }
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0] ?? "?";
    const path = [...issue.path, key];
    throw new ConfigError(
      `${at([...filePath, key])}${fieldName(path, mapKeys)}`,
      "unknown field; check the spelling (schema/costgate-config.schema.json lists the fields)",
    );
  }
  const name = fieldName(issue.path, mapKeys);
  const last = issue.path.at(-1);
  const got = valueAt(input, issue.path);
  let message: string;
  if (issue.code === "custom") {
    throw new ConfigError(`${at(filePath)}${name || source}`, issue.message);
  } else if (issue.path.length === 1 && last === "projects") {
    message =
      issue.code === "too_small" ? `lists no project; write ${PROJECTS_FORMS}` : `expected ${PROJECTS_FORMS}`;
  } else if (issue.path[0] === "projects" && issue.path.length === 2) {
    message = "expected a project, e.g. { projectId: 4242, monthlyBudget: 45000 }";
  } else if (issue.code === "invalid_type" && typeof last === "string" && EXPECTED[last]) {
    message = `expected ${EXPECTED[last]}`;
  } else if (issue.path[0] === "levels" && issue.path.length === 2) {
    message = "expected mandatory, advisory or disabled";
  } else {
    const e = zodToConfigError(new (zod().ZodError)([issue]), source);
    message = e.reason;
    if (isZodWording(message)) message = "is not valid here; see schema/costgate-config.schema.json";
  }
  throw new ConfigError(`${at(filePath)}${name || source}`, `${message}; got ${shown(got)}`);
}

/** readCostgateConfig reads and validates a JSON or YAML file (by its extension; JSON is YAML too). */
export function readCostgateConfig(path: string, limit?: DataFileLimit): CostgateConfig {
  const doc = readDataDocument(path, limit);
  return parseCostgateConfig(doc.value ?? {}, path, doc.lineOf);
}

/** A project to check, with the thresholds that apply to it. */
export type ConfiguredProject = Target;

export { budgetPart, mergeBudget };

/**
 * projectsOf lists the projects of a configuration with their thresholds: `projects`, else
 * `projectId`, else `COSTGATE_PROJECT_ID` (a comma list). Empty when none is named anywhere.
 * The same answer as `resolveTargets` (./targets.ts) without explicit projects.
 */
export function projectsOf(c: CostgateConfig, env: NodeJS.ProcessEnv = process.env): ConfiguredProject[] {
  return resolveProjects({ file: c, env }).targets;
}

/** The policies of the pack that take thresholds, and the ones that only need a project. */
const PACK_RULES = Object.values(RULE_INFO);

/**
 * policyPackConfig turns a configuration into the `--policy-pack-config` file Pulumi reads: each
 * budget policy gets the projects (or none, so that it reads `COSTGATE_PROJECT_ID` at run time), the
 * product and its thresholds, and `historyDays`, the longest window any project sets (a policy sees
 * only its own config: with it, the pack's one read per project serves them all); a policy whose
 * threshold no project sets is disabled — the file did not ask for it. A file that sets no threshold at all is refused: that pack would gate nothing.
 */
export function policyPackConfig(c: CostgateConfig): Record<string, Record<string, unknown>> {
  const perProject = c.projects ? resolveProjects({ file: c, env: {} }).targets : undefined;
  const all = perProject ?? [{ projectId: c.projectId, config: budgetPart(c) }];
  if (all.every((p) => configuredGates(p.config).length === 0)) {
    throw new ConfigError(
      "thresholds",
      "none is set, so the pack would let every deployment through: set minBalance, monthlyBudget or minRunwayDays",
    );
  }
  // the longest window any project sets: each enabled policy reads that much, so the pack reads once
  const windows = all.flatMap((p) => [p.config.trailingDays ?? 0, p.config.spikeWindowDays ?? 0]);
  const historyDays = Math.max(0, ...windows);
  const out: Record<string, Record<string, unknown>> = {};
  for (const info of PACK_RULES) {
    const { name: rule, defaultLevel } = info;
    const threshold: keyof BudgetConfig | undefined = "threshold" in info ? info.threshold : undefined;
    const level = (p: { config: BudgetConfig }) => p.config.levels?.[rule];
    const wanted = all.filter(
      (p) => level(p) !== "disabled" && (threshold === undefined || p.config[threshold] !== undefined),
    );
    if (wanted.length === 0) {
      out[rule] = { enforcementLevel: "disabled" };
      continue;
    }
    const entry: Record<string, unknown> = {
      enforcementLevel: level(wanted[0]!) ?? defaultLevel,
    };
    if (c.product !== undefined) entry["product"] = c.product;
    if (historyDays > 0) entry["historyDays"] = historyDays;
    // the rules a priced change moves: those that take an extra daily cost
    if (c.rateCard && (info.settings as readonly string[]).includes("extraDailyCost"))
      entry["rateCard"] = c.rateCard;
    const fields = (cfg: BudgetConfig) => {
      const f: Record<string, unknown> = {};
      for (const k of info.settings) if (cfg[k] !== undefined) f[k] = cfg[k];
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
  out["billing-available"] = { enforcementLevel: "advisory", ...(historyDays > 0 ? { historyDays } : {}) };
  return out;
}
