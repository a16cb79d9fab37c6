/**
 * --summary FILE: Markdown appended to a file, as GitHub Actions reads `$GITHUB_STEP_SUMMARY`.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { UsageError } from "./errors";
import { appendWhole } from "./files";

/**
 * summaryPathFrom checks, before anything is sent, that the summary file can be there: its folder exists
 * and it is not a folder itself. A file that still cannot be written later is exit 4, not 2.
 */
export function summaryPathFrom(file: string | undefined, flag = "--summary"): string | undefined {
  if (file === undefined) return undefined;
  if (file.trim() === "")
    throw new UsageError(`${flag}: give a file name, e.g. ${flag} "$GITHUB_STEP_SUMMARY"`);
  const path = resolve(file);
  if (!existsSync(dirname(path)) || !statSync(dirname(path)).isDirectory())
    throw new UsageError(
      `${flag}: the folder ${dirname(path)} does not exist; create it or choose another file`,
    );
  if (existsSync(path) && statSync(path).isDirectory())
    throw new UsageError(`${flag}: ${path} is a folder; give a file name, e.g. ${flag} ${path}/summary.md`);
  return file;
}

/**
 * appendSummary appends `markdown` to `file` whole or not at all; a file that cannot be written is a
 * FileWriteError (exit 4) naming it and what to do.
 */
export function appendSummary(file: string, markdown: string, flag = "--summary"): void {
  appendWhole(file, markdown, flag);
}
