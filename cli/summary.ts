/**
 * --summary FILE: Markdown appended to a file, as GitHub Actions reads `$GITHUB_STEP_SUMMARY`.
 */
import { appendFileSync } from "node:fs";
import { UsageError } from "./errors";

/** appendSummary appends `markdown` to `file`; a file that cannot be written is a UsageError naming it. */
export function appendSummary(file: string, markdown: string): void {
  try {
    appendFileSync(file, markdown);
  } catch (e) {
    throw new UsageError(
      `--summary: cannot write ${file} (${(e as NodeJS.ErrnoException).code ?? "error"}); give a writable file, e.g. --summary "$GITHUB_STEP_SUMMARY"`,
    );
  }
}
