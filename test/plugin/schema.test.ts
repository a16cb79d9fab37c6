/**
 * schema/pulumi-schema.json: what ships is what the generator makes from the TypeScript declarations
 * today, and it keeps the rules of Pulumi's package metaschema (pkg/codegen/schema/pulumi.json, read, not
 * copied): tokens, references, required ⊆ properties, secret flags, type specs. Property names are those of
 * the TypeScript resources and data sources.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IDENTITY_FIELDS } from "../../provider/identity/fields";
import { ROOT } from "../helpers/provider-host";

const require = createRequire(import.meta.url);
const { generateSchema } = require("../../scripts/gen-schema.js") as { generateSchema(): unknown };

type Spec = Record<string, unknown>;
const shipped = JSON.parse(readFileSync(join(ROOT, "schema/pulumi-schema.json"), "utf8")) as {
  name: string;
  version: string;
  pluginDownloadURL: string;
  config: { variables: Record<string, Spec> };
  provider: { inputProperties: Record<string, Spec> };
  types: Record<string, { type: string; properties: Record<string, Spec>; required?: string[] }>;
  resources: Record<
    string,
    {
      properties: Record<string, Spec>;
      required?: string[];
      inputProperties: Record<string, Spec>;
      requiredInputs?: string[];
    }
  >;
  functions: Record<
    string,
    {
      inputs: { properties: Record<string, Spec>; required?: string[] };
      outputs: { properties: Record<string, Spec>; required?: string[] };
    }
  >;
};

/** The metaschema's token pattern: package, optional module, name (the name not starting with a digit). */
const TOKEN = /^[a-zA-Z][-a-zA-Z0-9_]*:([^0-9][a-zA-Z0-9._/-]*)?:[^0-9][a-zA-Z0-9._/-]*$/;
const PRIMITIVES = ["boolean", "integer", "number", "string"];
const PROPERTY_KEYS = new Set([
  "type",
  "items",
  "additionalProperties",
  "oneOf",
  "$ref",
  "plain",
  "description",
  "const",
  "default",
  "defaultInfo",
  "deprecationMessage",
  "language",
  "secret",
  "replaceOnChanges",
  "willReplaceOnChanges",
]);

/** typeSpecErrors applies the metaschema's five kinds of type reference to one spec. */
function typeSpecErrors(s: Spec, at: string): string[] {
  const errs: string[] = [];
  for (const k of Object.keys(s)) if (!PROPERTY_KEYS.has(k)) errs.push(`${at}: unknown key ${k}`);
  if (s.secret !== undefined && typeof s.secret !== "boolean") errs.push(`${at}: secret is not a boolean`);
  if (s.description !== undefined && typeof s.description !== "string") errs.push(`${at}: description`);
  if (typeof s.$ref === "string") {
    if (s.items || s.additionalProperties || s.oneOf) errs.push(`${at}: a $ref with other type keys`);
    const m = /^#\/types\/(.+)$/.exec(s.$ref);
    if (!m?.[1] || !shipped.types[m[1]]) errs.push(`${at}: $ref ${s.$ref} names no type of the schema`);
    return errs;
  }
  if (Array.isArray(s.oneOf)) {
    if (s.oneOf.length < 2) errs.push(`${at}: oneOf needs two or more`);
    if (s.type !== undefined && !PRIMITIVES.includes(String(s.type)))
      errs.push(`${at}: union type ${s.type}`);
    for (const [i, o] of s.oneOf.entries()) errs.push(...typeSpecErrors(o as Spec, `${at}.oneOf[${i}]`));
    return errs;
  }
  if (s.type === "array") {
    if (!s.items) errs.push(`${at}: an array without items`);
    else errs.push(...typeSpecErrors(s.items as Spec, `${at}.items`));
    return errs;
  }
  if (s.type === "object") {
    if (s.items) errs.push(`${at}: a map with items`);
    if (s.additionalProperties) errs.push(...typeSpecErrors(s.additionalProperties as Spec, `${at}.values`));
    return errs;
  }
  if (!PRIMITIVES.includes(String(s.type))) errs.push(`${at}: type ${String(s.type)} is no primitive`);
  if (s.items || s.additionalProperties) errs.push(`${at}: a primitive with items or additionalProperties`);
  return errs;
}

function objectErrors(
  o: { properties: Record<string, Spec>; required?: string[] },
  at: string,
  req = "required",
) {
  const errs: string[] = [];
  for (const [k, s] of Object.entries(o.properties)) errs.push(...typeSpecErrors(s, `${at}.${k}`));
  for (const r of o.required ?? []) if (!(r in o.properties)) errs.push(`${at}: ${req} ${r} is no property`);
  return errs;
}

describe("the shipped schema", () => {
  it("is what the generator makes from the TypeScript declarations now (run node scripts/build.js)", () => {
    expect(shipped).toEqual(generateSchema());
  });

  it("keeps Pulumi's schema rules: tokens, references, required ⊆ properties, types, secrets", () => {
    const errs: string[] = [];
    expect(shipped.name).toMatch(/^[a-zA-Z][-a-zA-Z0-9_]*$/);
    expect(shipped.version).toMatch(
      /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/,
    );
    for (const group of [shipped.types, shipped.resources, shipped.functions]) {
      for (const token of Object.keys(group)) {
        if (!TOKEN.test(token)) errs.push(`${token}: not a token`);
        if (!token.startsWith(`${shipped.name}:`)) errs.push(`${token}: not of package ${shipped.name}`);
      }
    }
    for (const [t, o] of Object.entries(shipped.types)) {
      if (o.type !== "object") errs.push(`${t}: type ${o.type}`);
      errs.push(...objectErrors(o, t));
    }
    for (const [t, r] of Object.entries(shipped.resources)) {
      errs.push(...objectErrors(r, t));
      errs.push(
        ...objectErrors(
          { properties: r.inputProperties, required: r.requiredInputs },
          `${t} inputs`,
          "requiredInputs",
        ),
      );
    }
    for (const [t, f] of Object.entries(shipped.functions)) {
      errs.push(...objectErrors(f.inputs, `${t} inputs`));
      errs.push(...objectErrors(f.outputs, `${t} outputs`));
    }
    errs.push(...objectErrors({ properties: shipped.config.variables }, "config"));
    errs.push(...objectErrors({ properties: shipped.provider.inputProperties }, "provider"));
    expect(errs).toEqual([]);
  });

  it("marks the token, every secret identity field and the billing token secret, and nothing else", () => {
    const secretNames = new Set([
      "token",
      "billingToken",
      ...IDENTITY_FIELDS.filter((f) => f.secret).map((f) => f.name),
    ]);
    const seen: string[] = [];
    const walk = (props: Record<string, Spec>, at: string) => {
      for (const [k, s] of Object.entries(props)) {
        expect(Boolean(s.secret), `${at}.${k}`).toBe(secretNames.has(k));
        if (s.secret) seen.push(k);
      }
    };
    for (const [t, r] of Object.entries(shipped.resources)) {
      walk(r.properties, t);
      walk(r.inputProperties, t);
    }
    for (const [t, f] of Object.entries(shipped.functions)) walk(f.inputs.properties, t);
    walk(shipped.config.variables, "config");
    expect(new Set(seen)).toEqual(
      new Set(["token", "applicationCredentialSecret", "password", "billingToken"]),
    );
  });

  it("has the provider configuration of issue 22 and a pluginDownloadURL for the release archives", () => {
    expect(Object.keys(shipped.config.variables)).toEqual([
      "authUrl",
      "caCert",
      "insecure",
      "billingUrl",
      "billingToken",
      "timeoutSeconds",
      "cloud",
    ]);
    expect(shipped.provider.inputProperties).toEqual(shipped.config.variables);
    expect(shipped.pluginDownloadURL).toMatch(/^https:\/\/.+\$\{VERSION\}/);
  });

  it("describes every resource, function and argument from the TSDoc", () => {
    for (const r of Object.values(shipped.resources)) expect((r as Spec).description).toMatch(/\w{10}/);
    for (const f of Object.values(shipped.functions))
      expect((f as unknown as Spec).description).toMatch(/\w{10}/);
    expect(shipped.resources["costgate:index:PasswordToken"]?.inputProperties.password?.description).toMatch(
      /OS_PASSWORD/,
    );
  });
});
