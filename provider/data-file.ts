/**
 * Reading a JSON or YAML file a user wrote (the config file, the rate card): errors name the file and
 * the line and column where it failed, never its content; a value read keeps where each key stood, so
 * that a validation message can point at the line (`costgate.yaml:3: projects[0].monthlyBudget: ...`).
 */
import { extname } from "node:path";
import { ConfigError } from "./errors";
import { readBounded } from "./files";

/** How large a data file may be: `maxBytes` (the CLI's --max-input-size), named by `flag` in the error. */
export interface DataFileLimit {
  maxBytes?: number | undefined;
  flag?: string | undefined;
}

/** A file's value and where its parts stand. */
export interface DataDocument {
  /** The value, as JSON.parse or YAML would give it. */
  value: unknown;
  /**
   * lineOf is the 1-based line of the value at `path` (keys and list indexes from the top), or of the
   * deepest part of the path the file has; undefined when the file has no lines to give.
   */
  lineOf(path: readonly PropertyKey[]): number | undefined;
}

type Yaml = typeof import("yaml");
const yaml = (): Yaml => require("yaml") as Yaml;

/**
 * readDataFile reads a JSON or YAML file (by its extension; JSON is YAML too) and returns its value. A
 * file over the cap (1 MiB unless `limit` or COSTGATE_MAX_INPUT_SIZE says) is refused before it is read.
 */
export function readDataFile(path: string, limit: DataFileLimit = {}): unknown {
  return readDataDocument(path, limit).value;
}

/** readDataDocument reads a JSON or YAML file (by its extension) and keeps its line numbers. */
export function readDataDocument(path: string, limit: DataFileLimit = {}): DataDocument {
  return parseDataText(readBounded(path, { field: path, kind: "settings", ...limit }), path);
}

/**
 * parseDataText parses the text of a JSON or YAML file named `path` (the extension picks the parser:
 * `.json` is strict JSON, anything else YAML 1.2).
 */
export function parseDataText(text: string, path: string): DataDocument {
  return (extname(path).toLowerCase() === ".json" && plainJson(text, path)) || parseWithYaml(text, path);
}

/**
 * plainJson is the fast path of a `.json` file: JSON.parse, and no key given twice, found without
 * YAML; YAML (~15 ms to load) then reads the file only if a line is asked for, to place a refusal. It
 * returns undefined (the YAML path decides and words the error) for text that JSON.parse refuses or
 * that gives a key twice. A property test holds it equal to the YAML path.
 */
function plainJson(text: string, path: string): DataDocument | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (hasDuplicateKey(text)) return undefined;
  let slow: DataDocument | undefined;
  return {
    value,
    lineOf: (keys) => {
      slow ??= parseWithYaml(text, path);
      return slow.lineOf(keys);
    },
  };
}

/**
 * hasDuplicateKey tells whether JSON text that JSON.parse accepted gives a key twice in one object
 * (keys compared as JSON.parse reads them: `"a"` and `"\u0061"` are one key).
 */
export function hasDuplicateKey(text: string): boolean {
  const objects: (Set<string> | undefined)[] = [];
  let key = false; // the next string is a key
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let j = i + 1;
      let escaped = false;
      for (let d = text.charCodeAt(j); d !== 0x22; d = text.charCodeAt(j)) {
        if (d === 0x5c) {
          escaped = true;
          j += 2;
        } else j++;
      }
      const keys = objects[objects.length - 1];
      if (key && keys) {
        const name = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        if (keys.has(name)) return true;
        keys.add(name);
        key = false;
      }
      i = j;
    } else if (c === 0x7b) {
      objects.push(new Set());
      key = true;
    } else if (c === 0x5b) {
      objects.push(undefined);
      key = false;
    } else if (c === 0x7d || c === 0x5d) objects.pop();
    else if (c === 0x2c) key = objects[objects.length - 1] !== undefined;
  }
  return false;
}

/**
 * parseWithYaml is parseDataText by the YAML parser, which places every refusal at a line and column
 * (exported for the test that holds the JSON fast path equal to it).
 */
export function parseWithYaml(text: string, path: string): DataDocument {
  const { LineCounter, parseDocument } = yaml();
  const isJson = extname(path).toLowerCase() === ".json";
  const lines = new LineCounter();
  const where = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return `${path}:${line}:${col}`;
  };
  // YAML's JSON schema refuses what JSON refuses (bare words, 01), so it also places JSON's errors
  const doc = parseDocument(text, {
    lineCounter: lines,
    prettyErrors: false,
    uniqueKeys: true,
    ...(isJson ? { schema: "json" as const } : {}),
  });
  let value: unknown;
  if (isJson) {
    try {
      value = JSON.parse(text);
    } catch (cause) {
      // the parser's message may quote the file; only where it failed is kept
      const at = /position (\d+)/.exec(String((cause as Error).message))?.[1];
      const offset =
        at !== undefined
          ? Number(at)
          : /end of JSON input/.test(String((cause as Error).message))
            ? text.length
            : doc.errors[0]?.pos[0];
      throw new ConfigError(
        offset === undefined ? path : where(offset),
        "is not valid JSON; check the quotes, commas and brackets there",
      );
    }
    // JSON.parse keeps the last of a key given twice; a file that says two things is refused
    const twice = doc.errors.find((e) => e.code === "DUPLICATE_KEY");
    if (twice) throw new ConfigError(where(twice.pos[0]), "is not valid JSON (a key given twice)");
  } else {
    const first = doc.errors[0];
    if (first) {
      throw new ConfigError(
        where(first.pos[0]),
        `is not valid YAML (${first.code === "DUPLICATE_KEY" ? "a key given twice" : "check the indentation, colons and quotes there"})`,
      );
    }
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch {
      throw new ConfigError(path, "is not valid YAML (too many aliases); write the values out");
    }
  }
  const lineOf = (keys: readonly PropertyKey[]): number | undefined => {
    // the JSON read by JSON.parse has no positions when YAML could not read it
    if (doc.errors.length > 0) return undefined;
    const { isMap, isSeq, isScalar } = yaml();
    let node: unknown = doc.contents;
    let at: number | undefined = (node as { range?: number[] } | null)?.range?.[0];
    for (const key of keys) {
      let next: unknown;
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(key));
        if (!pair) break;
        at = (pair.key as { range?: number[] }).range?.[0] ?? at;
        next = pair.value;
      } else if (isSeq(node) && typeof key === "number") {
        next = node.items[key];
      } else break;
      const start = (next as { range?: number[] } | null)?.range?.[0];
      if (start !== undefined && !isMap(next) && !isSeq(next)) at = start;
      else if (start !== undefined && isSeq(node)) at = start;
      node = next;
    }
    return at === undefined ? undefined : lines.linePos(at).line;
  };
  return { value, lineOf };
}
