/**
 * What can be checked of the other-language examples without a Pulumi CLI: the YAML program's provider,
 * resource types, properties, invoke names, arguments and the outputs it reads all exist in the schema;
 * the Python program's classes, functions and keyword arguments are the schema's names in Python's
 * spelling (snake_case, `from_` for `from`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "../helpers/provider-host";

type Props = Record<string, unknown>;
const schema = JSON.parse(readFileSync(join(ROOT, "schema/pulumi-schema.json"), "utf8")) as {
  config: { variables: Props };
  types: Record<string, { properties: Props }>;
  resources: Record<string, { properties: Props; inputProperties: Props }>;
  functions: Record<string, { inputs: { properties: Props }; outputs: { properties: Props } }>;
};

/** The properties of a function's result reached by `return` (a $ref to an object type). */
function returned(fn: string, field: string | undefined): Props {
  const outputs = schema.functions[fn]?.outputs.properties ?? {};
  if (!field) return outputs;
  const ref = (outputs[field] as { $ref?: string } | undefined)?.$ref;
  return ref ? (schema.types[ref.replace("#/types/", "")]?.properties ?? {}) : {};
}

describe("examples/yaml/Pulumi.yaml", () => {
  const program = parse(readFileSync(join(ROOT, "examples/yaml/Pulumi.yaml"), "utf8")) as {
    runtime: string;
    plugins: { providers: { name: string; path: string }[] };
    resources: Record<string, { type: string; properties: Props }>;
    variables: Record<string, { "fn::invoke": { function: string; arguments: Props; return?: string } }>;
    outputs: Record<string, string>;
  };

  it("loads the plugin from the installed package's bin folder", () => {
    expect(program.runtime).toBe("yaml");
    expect(program.plugins.providers).toEqual([{ name: "costgate", path: "./node_modules/.bin" }]);
  });

  it("uses resource types and properties the schema has", () => {
    for (const r of Object.values(program.resources)) {
      const spec = schema.resources[r.type];
      expect(spec, r.type).toBeDefined();
      for (const k of Object.keys(r.properties))
        expect(spec?.inputProperties, `${r.type}.${k}`).toHaveProperty([k]);
    }
  });

  it("invokes functions the schema has, with its arguments, reading fields it returns", () => {
    const outputsOf: Record<string, Props> = {};
    for (const [name, v] of Object.entries(program.variables)) {
      const inv = v["fn::invoke"];
      expect(schema.functions[inv.function], inv.function).toBeDefined();
      for (const k of Object.keys(inv.arguments))
        expect(schema.functions[inv.function]?.inputs.properties, `${inv.function}(${k})`).toHaveProperty([
          k,
        ]);
      outputsOf[name] = returned(inv.function, inv.return);
      if (inv.return) expect(Object.keys(outputsOf[name] ?? {}).length, inv.return).toBeGreaterThan(0);
    }
    for (const [name, r] of Object.entries(program.resources))
      outputsOf[name] = schema.resources[r.type]?.properties ?? {};
    for (const out of Object.values(program.outputs)) {
      const m = /^\$\{(\w+)\.(\w+)\}$/.exec(out);
      expect(m, out).not.toBeNull();
      expect(outputsOf[m?.[1] ?? ""], out).toHaveProperty([m?.[2] ?? ""]);
    }
  });
});

describe("examples/python/__main__.py", () => {
  const text = readFileSync(join(ROOT, "examples/python/__main__.py"), "utf8");
  const camel = (s: string) => s.replace(/_$/, "").replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

  it("calls the generated SDK's names for the schema's resources and functions, with their arguments", () => {
    const calls = [...text.matchAll(/costgate\.(\w+)\(([\s\S]*?)\)\n/g)];
    expect(calls.length).toBeGreaterThanOrEqual(3);
    for (const [, name, body] of calls) {
      const resource = schema.resources[`costgate:index:${name}`];
      const fn = schema.functions[`costgate:index:${camel((name ?? "").replace(/_output$/, ""))}`];
      expect(resource ?? fn, name).toBeDefined();
      const props = resource ? resource.inputProperties : (fn?.inputs.properties ?? {});
      for (const [, kw] of (body ?? "").matchAll(/(\w+)=/g))
        expect(props, `${name}(${kw})`).toHaveProperty([camel(kw ?? "")]);
    }
  });
});
