/**
 * Reading a JSON or YAML file a user wrote (the config file, the rate card): errors name the file and
 * where it failed, never its content.
 */
import { extname } from "node:path";
import { ConfigError } from "./errors";
import { readBounded } from "./files";

/** How large a data file may be: `maxBytes` (the CLI's --max-input-size), named by `flag` in the error. */
export interface DataFileLimit {
  maxBytes?: number | undefined;
  flag?: string | undefined;
}

/**
 * readDataFile reads a JSON or YAML file (by its extension; JSON is YAML too) and returns its value. A
 * file over the cap (1 MiB unless `limit` or COSTGATE_MAX_INPUT_SIZE says) is refused before it is read.
 */
export function readDataFile(path: string, limit: DataFileLimit = {}): unknown {
  const text = readBounded(path, { field: path, kind: "settings", ...limit });
  try {
    return extname(path).toLowerCase() === ".json"
      ? JSON.parse(text)
      : (require("yaml") as typeof import("yaml")).parse(text, { prettyErrors: false });
  } catch (cause) {
    // the parser's message quotes the file; only where it failed is kept
    const where = (cause as { linePos?: { line: number; col: number }[] }).linePos?.[0];
    throw new ConfigError(
      path,
      `is not valid ${extname(path).toLowerCase() === ".json" ? "JSON" : "YAML"}${where ? ` (line ${where.line}, column ${where.col})` : ""}`,
    );
  }
}
