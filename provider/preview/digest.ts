/**
 * Reading `pulumi preview --json`: Pulumi's `display.PreviewDigest` (pulumi/pulumi `pkg/display/json.go`,
 * filled by `pkg/backend/display/json.go`). Tolerant of what it does not use (every field but `steps` is
 * ignored, unknown keys pass), strict about what it does: each step's `op`, `urn` and states.
 */
import { ConfigError } from "../errors";

/** A resource state in a step (`apitype.ResourceV3`): only the fields pricing reads. */
export interface DigestState {
  urn?: string;
  type?: string;
  custom?: boolean;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  parent?: string;
  delete?: boolean;
}

/** One step (`display.PreviewStep`). */
export interface DigestStep {
  op: string;
  urn: string;
  provider?: string;
  oldState?: DigestState;
  newState?: DigestState;
}

/** The digest as read: its steps, and its change summary when present. */
export interface PreviewDigest {
  steps: DigestStep[];
  changeSummary?: Record<string, number>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * parseDigest reads the text of `pulumi preview --json`. `source` names it in errors (a file name, or
 * "standard input"), and `field` the setting that gave it, in the caller's words (the command line's
 * `--preview`). Not JSON, a truncated file, or JSON that is not a preview digest throw a ConfigError
 * that says which and how to get a digest.
 *
 * @example
 * const digest = parseDigest(readFileSync("preview.json", "utf8"), "preview.json");
 */
export function parseDigest(text: string, source = "the preview", field = "preview"): PreviewDigest {
  const how = "write it with `pulumi preview --json > preview.json`";
  if (text.trim() === "") throw new ConfigError(field, `${source} is empty; ${how}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // the parser's message quotes the text; only where it failed is kept (a file may hold anything)
    const msg = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(msg);
    const pos = at ? Number(at[1]) : undefined;
    const truncated =
      /^\s*[{[]/.test(text) &&
      (/end of (JSON )?input/i.test(msg) || (pos !== undefined && pos >= text.trimEnd().length));
    let where = "";
    if (pos !== undefined) {
      const before = text.slice(0, pos);
      const line = before.split("\n").length;
      where = ` at line ${line}, column ${pos - before.lastIndexOf("\n")}`;
    }
    throw new ConfigError(
      field,
      truncated
        ? `${source} ends before its JSON does${where}: the file is truncated; ${how}`
        : `${source} is not JSON (it fails to parse${where}); ${how}`,
    );
  }
  if (!isObject(value))
    throw new ConfigError(field, `${source} is JSON but not a preview digest (an object with steps); ${how}`);
  if (value["steps"] === undefined) {
    // an empty preview omits steps (omitempty); anything else without steps is not a digest
    const known = ["config", "diagnostics", "duration", "changeSummary", "maybeCorrupt"];
    if (Object.keys(value).length > 0 && !Object.keys(value).some((k) => known.includes(k)))
      throw new ConfigError(field, `${source} is JSON but not a preview digest: it has no steps; ${how}`);
    return { steps: [], ...summaryOf(value) };
  }
  const raw = value["steps"];
  if (!Array.isArray(raw))
    throw new ConfigError(field, `${source}: steps is not a list; is this \`pulumi preview --json\` output?`);
  // checked in place: the parsed objects are the steps (a preview can hold thousands)
  for (let i = 0; i < raw.length; i++) {
    const s: unknown = raw[i];
    const at = () => `${source}: steps[${i}]`;
    if (!isObject(s)) throw new ConfigError(field, `${at()} is not an object`);
    if (typeof s["op"] !== "string" || s["op"] === "") throw new ConfigError(field, `${at()} has no op`);
    const urn = s["urn"];
    if (typeof urn !== "string" || !urn.startsWith("urn:pulumi:"))
      throw new ConfigError(field, `${at()} has no urn (urn:pulumi:...)`);
    for (const k of ["oldState", "newState"] as const) {
      const v = s[k];
      if (v === undefined) continue;
      if (v === null) {
        delete s[k];
        continue;
      }
      if (!isObject(v)) throw new ConfigError(field, `${at()}.${k} is not an object`);
      const inputs = v["inputs"];
      if (inputs !== undefined && inputs !== null && !isObject(inputs))
        throw new ConfigError(field, `${at()}.${k}.inputs is not an object`);
      const outputs = v["outputs"];
      if (outputs !== undefined && outputs !== null && !isObject(outputs))
        throw new ConfigError(field, `${at()}.${k}.outputs is not an object`);
    }
  }
  const steps = raw as DigestStep[];
  return { steps, ...summaryOf(value) };
}

function summaryOf(v: Record<string, unknown>): { changeSummary?: Record<string, number> } {
  const c = v["changeSummary"];
  return isObject(c) ? { changeSummary: c as Record<string, number> } : {};
}

/** typeOfUrn reads the resource type from a URN: the last `$`-part of its type segment. */
export function typeOfUrn(urn: string): string {
  const parts = urn.split("::");
  const qualified = parts[2] ?? "";
  return qualified.split("$").pop() ?? qualified;
}
