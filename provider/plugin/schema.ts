/**
 * The package schema the plugin serves (GetSchema) and checks property values against: the file
 * `schema/pulumi-schema.json`, generated from the TypeScript declarations by scripts/gen-schema.js.
 * @internal
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isUnknown } from "./values";

/** A type or property of the schema (the parts costgate uses). */
export interface TypeSpec {
  type?: string;
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  oneOf?: TypeSpec[];
  $ref?: string;
  secret?: boolean;
  description?: string;
}

export interface ObjectSpec {
  properties: Record<string, TypeSpec>;
  required?: string[];
}

export interface PackageSchema {
  name: string;
  version: string;
  config: { variables: Record<string, TypeSpec> };
  types: Record<string, ObjectSpec>;
  resources: Record<
    string,
    ObjectSpec & { inputProperties: Record<string, TypeSpec>; requiredInputs?: string[] }
  >;
  functions: Record<string, { inputs: ObjectSpec; outputs: ObjectSpec }>;
}

/** packageRoot is the folder of costgate's package.json: above dist/provider/plugin, or provider/plugin. */
export function packageRoot(from: string = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, "schema/pulumi-schema.json")) || !existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`costgate's package.json and schema/ are not above ${from}`);
    dir = up;
  }
  return dir;
}

/** The schema file of the package. */
export const SCHEMA_FILE = join(packageRoot(), "schema/pulumi-schema.json");

let cached: { text: string; schema: PackageSchema } | undefined;

/** schemaText is the schema as the engine receives it. */
export function schemaText(): string {
  return loaded().text;
}

/** packageSchema is the parsed schema. */
export function packageSchema(): PackageSchema {
  return loaded().schema;
}

function loaded() {
  if (!cached) {
    const text = readFileSync(SCHEMA_FILE, "utf8");
    cached = { text, schema: JSON.parse(text) as PackageSchema };
  }
  return cached;
}

/** A property that failed, named as the engine shows it. */
export interface Failure {
  property: string;
  reason: string;
}

function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "an object";
  return `a ${typeof v}`;
}

/** typeFailures lists the values of `path` that do not have their schema type (unknown values pass). */
function typeFailures(v: unknown, spec: TypeSpec, path: string, schema: PackageSchema): Failure[] {
  if (isUnknown(v)) return [];
  if (spec.oneOf) {
    const ok = spec.oneOf.some((s) => typeFailures(v, s, path, schema).length === 0);
    const names = spec.oneOf.map((s) => s.type ?? "object").join(" or ");
    return ok ? [] : [{ property: path, reason: `${path}: must be a ${names}, not ${kindOf(v)}` }];
  }
  if (spec.$ref) {
    const obj = schema.types[spec.$ref.replace("#/types/", "")];
    if (!obj) return [];
    if (typeof v !== "object" || v === null || Array.isArray(v))
      return [{ property: path, reason: `${path}: must be an object, not ${kindOf(v)}` }];
    return objectFailures(v as Record<string, unknown>, obj, path, schema);
  }
  switch (spec.type) {
    case "string":
      return typeof v === "string"
        ? []
        : [{ property: path, reason: `${path}: must be a string, not ${kindOf(v)}` }];
    case "boolean":
      return typeof v === "boolean"
        ? []
        : [{ property: path, reason: `${path}: must be true or false, not ${kindOf(v)}` }];
    case "number":
    case "integer":
      if (typeof v !== "number" || !Number.isFinite(v))
        return [{ property: path, reason: `${path}: must be a number, not ${kindOf(v)}` }];
      return spec.type === "integer" && !Number.isInteger(v)
        ? [{ property: path, reason: `${path}: must be a whole number` }]
        : [];
    case "array":
      if (!Array.isArray(v)) return [{ property: path, reason: `${path}: must be a list, not ${kindOf(v)}` }];
      return spec.items
        ? v.flatMap((x, i) => typeFailures(x, spec.items as TypeSpec, `${path}[${i}]`, schema))
        : [];
    default:
      return [];
  }
}

/**
 * objectFailures checks a property map against an object type: names it does not have (a typo), values
 * of the wrong type, and (with `required`) required properties that are missing. Names starting with
 * `__` are the engine's and pass.
 */
export function objectFailures(
  values: Record<string, unknown>,
  obj: ObjectSpec,
  path = "",
  schema: PackageSchema = packageSchema(),
): Failure[] {
  const failures: Failure[] = [];
  const names = Object.keys(obj.properties);
  for (const [k, v] of Object.entries(values)) {
    if (k.startsWith("__") || v === null || v === undefined) continue;
    const at = path ? `${path}.${k}` : k;
    const spec = obj.properties[k];
    if (!spec) {
      failures.push({
        property: at,
        reason: `${at}: not a property here; the properties are ${names.join(", ")}`,
      });
      continue;
    }
    failures.push(...typeFailures(v, spec, at, schema));
  }
  for (const k of obj.required ?? []) {
    if (values[k] === undefined || values[k] === null) {
      const at = path ? `${path}.${k}` : k;
      failures.push({ property: at, reason: `${at}: missing; it is required` });
    }
  }
  return failures;
}
