/**
 * Exit codes and the one-line error report of the costgate command.
 */
import { isConfigError, isCostgateError } from "../provider/errors";

/** Exit codes, documented in the README. */
export const EXIT = {
  ok: 0,
  /** A mandatory budget rule failed (costgate check). */
  violation: 1,
  /** Bad usage or settings: nothing was sent. */
  usage: 2,
  /** The API refused the request or could not be reached. */
  api: 3,
} as const;

/** UsageError is a bad flag combination found by the CLI itself. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** exitCodeFor maps an error to the command's exit code. */
export function exitCodeFor(e: unknown): number {
  if (e instanceof UsageError || isConfigError(e)) return EXIT.usage;
  if (isCostgateError(e)) return EXIT.api;
  return EXIT.api;
}

/** reportError prints one line on stderr: what failed and what to do. Never a stack trace unless COSTGATE_DEBUG. */
export function reportError(e: unknown): number {
  const code = exitCodeFor(e);
  const message = e instanceof Error ? e.message : String(e);
  process.stderr.write(`costgate: error: ${message.replace(/\s*\n\s*/g, " ")}\n`);
  const stack = e instanceof Error ? e.stack : undefined;
  if (process.env["COSTGATE_DEBUG"] && stack && !isCostgateError(e)) process.stderr.write(`${stack}\n`);
  return code;
}
