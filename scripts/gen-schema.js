#!/usr/bin/env node
// schema/pulumi-schema.json: the Pulumi package schema of the costgate provider plugin
// (bin/pulumi-resource-costgate), generated from the TypeScript resources and data sources so that the two
// cannot drift. Property names, types, optionality and descriptions come from the declarations and their
// TSDoc (provider/resources/token.ts, provider/resources/billing.ts and the types they name); which
// properties are secret comes from the one identity field list (dist/provider/identity/fields.js).
//
//   node scripts/gen-schema.js            print the schema (scripts/build.js writes it to schema/pulumi-schema.json)
//   generateSchema()                      the schema object (test/plugin/schema.test.ts compares)
const path = require("node:path");
const ts = require("typescript");

const root = path.resolve(__dirname, "..");
const PKG = "costgate";
const TOKEN_FILE = path.join(root, "provider/resources/token.ts");
const BILLING_FILE = path.join(root, "provider/resources/billing.ts");

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const token = (name) => `${PKG}:index:${name}`;

/** secretNames: the token, the billing token and every secret identity field. */
function secretNames() {
  const { IDENTITY_FIELDS } = require(path.join(root, "dist/provider/identity/fields.js"));
  return new Set(["token", "billingToken", ...IDENTITY_FIELDS.filter((f) => f.secret).map((f) => f.name)]);
}

function docOf(checker, node) {
  const sym = node.name ? checker.getSymbolAtLocation(node.name) : undefined;
  const text = sym ? ts.displayPartsToString(sym.getDocumentationComment(checker)) : "";
  return text.replace(/\s+/g, " ").trim();
}

function generateSchema() {
  const program = ts.createProgram([TOKEN_FILE, BILLING_FILE], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    strict: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const secrets = secretNames();
  const types = {};

  /** declaration finds an interface or type alias by name in the program's own files. */
  function declaration(name) {
    for (const sf of program.getSourceFiles()) {
      if (sf.isDeclarationFile || !sf.fileName.startsWith(root) || sf.fileName.includes("node_modules"))
        continue;
      let found;
      sf.forEachChild((n) => {
        if (
          (ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n) || ts.isClassDeclaration(n)) &&
          n.name?.text === name
        )
          found = n;
      });
      if (found) return found;
    }
    throw new Error(`gen-schema: no declaration named ${name}`);
  }

  /** members lists an interface's properties, inherited ones first (`extends`). */
  function members(decl) {
    const out = new Map();
    for (const clause of decl.heritageClauses ?? []) {
      for (const t of clause.types) {
        const base = t.expression.getText();
        if (base.startsWith("pulumi.")) continue;
        for (const [k, v] of members(declaration(base))) out.set(k, v);
      }
    }
    for (const m of decl.members) {
      if (!ts.isPropertySignature(m) && !ts.isPropertyDeclaration(m)) continue;
      out.set(m.name.getText(), m);
    }
    return out;
  }

  /** typeSpec maps a TypeScript type node to a Pulumi schema type; `hint` names an inline object type. */
  function typeSpec(node, hint) {
    if (!node) throw new Error(`gen-schema: ${hint} has no type`);
    if (ts.isParenthesizedTypeNode(node)) return typeSpec(node.type, hint);
    if (ts.isArrayTypeNode(node)) return { type: "array", items: typeSpec(node.elementType, hint) };
    if (ts.isUnionTypeNode(node)) {
      const parts = node.types.filter(
        (t) =>
          t.kind !== ts.SyntaxKind.UndefinedKeyword &&
          !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword),
      );
      const specs = parts.map((t) => typeSpec(t, hint));
      const unique = specs.filter(
        (s, i) => specs.findIndex((o) => JSON.stringify(o) === JSON.stringify(s)) === i,
      );
      return unique.length === 1 ? unique[0] : { oneOf: unique };
    }
    if (ts.isLiteralTypeNode(node)) {
      if (ts.isNumericLiteral(node.literal)) return { type: "integer" };
      if (ts.isStringLiteral(node.literal)) return { type: "string" };
      if (node.literal.kind === ts.SyntaxKind.TrueKeyword || node.literal.kind === ts.SyntaxKind.FalseKeyword)
        return { type: "boolean" };
    }
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { type: "string" };
      case ts.SyntaxKind.NumberKeyword:
        return { type: "number" };
      case ts.SyntaxKind.BooleanKeyword:
        return { type: "boolean" };
    }
    if (ts.isTypeLiteralNode(node)) return objectRef(hint, node.members);
    if (ts.isTypeReferenceNode(node)) {
      const name = node.typeName.getText();
      if (name === "pulumi.Input" || name === "pulumi.Output") return typeSpec(node.typeArguments[0], hint);
      // a Date crosses the wire as an ISO 8601 string
      if (name === "Date") return { type: "string" };
      if (name === "Record" && node.typeArguments?.length === 2)
        return { type: "object", additionalProperties: typeSpec(node.typeArguments[1], hint) };
      // a name imported from another module: follow the import to its declaration
      const sym = checker.getSymbolAtLocation(node.typeName);
      const target = sym && sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
      const decl = target?.declarations?.[0];
      if (decl && ts.isInterfaceDeclaration(decl)) return objectRef(name.replace(/^.*\./, ""), decl.members);
      if (decl && ts.isTypeAliasDeclaration(decl)) {
        // ProductId and other aliases of literal unions: by the type the checker computes
        const t = checker.getTypeAtLocation(decl.name);
        if (t.isUnion() && t.types.every((u) => u.isNumberLiteral())) return { type: "integer" };
        if (t.isUnion() && t.types.every((u) => u.isStringLiteral())) return { type: "string" };
        return typeSpec(decl.type, hint);
      }
    }
    throw new Error(`gen-schema: cannot map the type of ${hint} (${node.getText()}) to a Pulumi schema type`);
  }

  /** objectRef registers a named object type and returns a reference to it. */
  function objectRef(name, memberNodes) {
    const key = token(cap(name));
    if (!types[key]) {
      types[key] = { type: "object" }; // placeholder against cycles
      const { properties, required } = propertiesOf(memberNodes, cap(name));
      types[key] = { type: "object", properties, ...(required.length ? { required } : {}) };
    }
    return { $ref: `#/types/${key}` };
  }

  /** propertiesOf maps property signatures to schema properties and the names that are required. */
  function propertiesOf(memberNodes, owner, { allRequired = false } = {}) {
    const properties = {};
    const required = [];
    for (const m of memberNodes) {
      if (!ts.isPropertySignature(m) && !ts.isPropertyDeclaration(m)) continue;
      const name = m.name.getText();
      const spec = { ...typeSpec(m.type, `${owner}${cap(name)}`) };
      const description = docOf(checker, m);
      if (description) spec.description = description;
      if (secrets.has(name)) spec.secret = true;
      properties[name] = spec;
      const nullable =
        m.type &&
        ts.isUnionTypeNode(m.type) &&
        m.type.types.some((t) => ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword);
      if ((allRequired || !m.questionToken) && !nullable) required.push(name);
    }
    return { properties, required };
  }

  const tokenArgs = members(declaration("TokenResourceArgs"));
  const billingArgs = members(declaration("BillingConnectionArgs"));
  const configDecls = { TokenResourceArgs: tokenArgs, BillingConnectionArgs: billingArgs };
  // the provider's configuration keys, each with the declaration it is described by (plugin/config.ts)
  const { CONFIG_KEYS } = require(path.join(root, "dist/provider/plugin/config.js"));
  const configNodes = Object.entries(CONFIG_KEYS).map(([key, from]) => {
    const node = configDecls[from].get(key);
    if (!node) throw new Error(`gen-schema: ${from} has no ${key}`);
    return node;
  });
  const config = propertiesOf(configNodes, "Provider");

  // outputs: the readonly fields KeystoneToken declares
  const outputNodes = declaration("KeystoneToken").members.filter(
    (m) => ts.isPropertyDeclaration(m) && m.modifiers?.some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword),
  );
  // the resources and functions the plugin serves (plugin/resources.ts, plugin/invoke.ts): each named as the
  // TypeScript class or function, its arguments `<Name>Args`, a function's result `<name without get>`
  const { RESOURCE_TYPES } = require(path.join(root, "dist/provider/plugin/resources.js"));
  const { FUNCTION_TOKENS } = require(path.join(root, "dist/provider/plugin/invoke.js"));
  const bare = (tok) => tok.split(":").pop();
  const resources = {};
  for (const name of Object.keys(RESOURCE_TYPES).map(bare)) {
    const argsName = `${name}Args`;
    const cls = declaration(name);
    const inputs = propertiesOf([...members(declaration(argsName)).values()], name);
    const outputs = propertiesOf(outputNodes, name, { allRequired: true });
    resources[token(name)] = {
      description: docOf(checker, cls),
      properties: outputs.properties,
      required: outputs.required,
      inputProperties: inputs.properties,
      ...(inputs.required.length ? { requiredInputs: inputs.required } : {}),
    };
  }

  const functions = {};
  for (const name of FUNCTION_TOKENS.map(bare)) {
    const argsName = `${cap(name)}Args`;
    const resultName = name.replace(/^get/, "");
    const inputs = propertiesOf([...members(declaration(argsName)).values()], cap(name));
    const outputs = propertiesOf([...members(declaration(resultName)).values()], resultName);
    let description = "";
    for (const sf of program.getSourceFiles()) {
      if (sf.fileName !== BILLING_FILE) continue;
      sf.forEachChild((n) => {
        if (ts.isFunctionDeclaration(n) && n.name?.text === name) description = docOf(checker, n);
      });
    }
    functions[token(name)] = {
      description,
      inputs: {
        properties: inputs.properties,
        ...(inputs.required.length ? { required: inputs.required } : {}),
      },
      outputs: {
        properties: outputs.properties,
        ...(outputs.required.length ? { required: outputs.required } : {}),
      },
    };
  }

  const pkg = require(path.join(root, "package.json"));
  return {
    name: PKG,
    displayName: "costgate",
    version: pkg.version,
    description: pkg.description,
    keywords: ["pulumi", "openstack", "keystone", "billing", "category/cloud"],
    homepage: pkg.homepage,
    license: pkg.license,
    repository: "https://github.com/costgate/costgate",
    publisher: "costgate",
    // the engine fetches pulumi-resource-costgate-v<version>-<os>-<arch>.tar.gz from here
    // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VERSION} is the engine's placeholder, not JavaScript's
    pluginDownloadURL: "https://github.com/costgate/costgate/releases/download/v${VERSION}/",
    meta: { moduleFormat: "(.*)" },
    config: { variables: config.properties },
    provider: {
      description:
        "The costgate provider: where the identity and billing endpoints are, and the credentials for them.",
      inputProperties: config.properties,
    },
    types: Object.fromEntries(Object.entries(types).sort(([a], [b]) => a.localeCompare(b))),
    resources,
    functions,
  };
}

module.exports = { generateSchema };
if (require.main === module) process.stdout.write(`${JSON.stringify(generateSchema(), null, 2)}\n`);
