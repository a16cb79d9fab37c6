/**
 * The JSON schema Keystone checks `auth` against before anything else (keystone/auth/schema.py,
 * `token_issue`), with jsonschema's error order and Keystone's message format:
 * "Invalid input for field 'identity': 'methods' is a required property".
 */
import { KeystoneError } from "./errors";

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
}

const str: Schema = { type: "string" };
const idName: Schema = { type: "object", properties: { id: str, name: str } };

/** TOKEN_ISSUE is Keystone's `token_issue` schema (trust and system scope omitted). */
const TOKEN_ISSUE: Schema = {
  type: "object",
  properties: {
    identity: {
      type: "object",
      properties: {
        methods: { type: "array", items: str },
        password: {
          type: "object",
          properties: {
            user: { type: "object", properties: { id: str, name: str, password: str, domain: idName } },
          },
        },
        token: { type: "object", properties: { id: str }, required: ["id"] },
      },
      required: ["methods"],
    },
    scope: {
      type: ["object", "string"],
      properties: {
        project: { type: "object", properties: { name: str, id: str, domain: idName } },
        domain: idName,
        system: { type: "object" },
      },
    },
  },
  required: ["identity"],
};

/** pyRepr renders a JSON value as Python's repr, as jsonschema messages do. */
function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return "None";
  if (typeof v === "string") return `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "number") return String(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`)
    .join(", ")}}`;
}

function typeOk(v: unknown, type: string): boolean {
  switch (type) {
    case "object":
      return typeof v === "object" && v !== null && !Array.isArray(v);
    case "array":
      return Array.isArray(v);
    case "string":
      return typeof v === "string";
    default:
      return true;
  }
}

interface Failure {
  path: (string | number)[];
  schemaPath: string[];
  keyword: string;
  message: string;
}

function firstFailure(
  v: unknown,
  s: Schema,
  path: (string | number)[],
  schemaPath: string[],
): Failure | undefined {
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((t) => typeOk(v, t))) {
      return {
        path,
        schemaPath,
        keyword: "type",
        message: `${pyRepr(v)} is not of type ${types.map((t) => `'${t}'`).join(", ")}`,
      };
    }
  }
  if (s.properties && typeOk(v, "object")) {
    const obj = v as Record<string, unknown>;
    for (const [name, sub] of Object.entries(s.properties)) {
      if (!(name in obj)) continue;
      const f = firstFailure(obj[name], sub, [...path, name], [...schemaPath, "properties", name]);
      if (f) return f;
    }
  }
  if (s.items && Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const f = firstFailure(v[i], s.items, [...path, i], [...schemaPath, "items"]);
      if (f) return f;
    }
  }
  if (s.required && typeOk(v, "object")) {
    for (const name of s.required) {
      if (!(name in (v as object))) {
        return { path, schemaPath, keyword: "required", message: `'${name}' is a required property` };
      }
    }
  }
  return undefined;
}

/** validateTokenIssue throws Keystone's 400 for an `auth` object its schema refuses. */
export function validateTokenIssue(auth: unknown): void {
  const f = firstFailure(auth, TOKEN_ISSUE, [], []);
  if (!f) return;
  const head = f.path.length > 0 ? `Invalid input for field '${f.path.join("/")}': ${f.message}` : f.message;
  const where = f.schemaPath.map((p) => `['${p}']`).join("");
  throw new KeystoneError(400, `${head}\n\nFailed validating '${f.keyword}' in schema${where}`);
}
