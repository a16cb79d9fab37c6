/**
 * Reading a JSON or YAML file a user wrote (the config file, the rate card): errors name the file and
 * where it failed, never its content.
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { ConfigError } from "./errors";

/** readDataFile reads a JSON or YAML file (by its extension; JSON is YAML too) and returns its value. */
export function readDataFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (cause) {
    throw new ConfigError(
      path,
      `cannot be read (${(cause as NodeJS.ErrnoException).code ?? "error"}); check the path`,
    );
  }
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
