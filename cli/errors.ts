/**
 * Exit codes and the one-line error report of the costgate command.
 */
import { isConfigError, isCostgateError } from "../provider/errors";
import { cleanText } from "../provider/text";

/** Exit codes, documented in the README. */
export const EXIT = {
  ok: 0,
  /** A mandatory budget rule failed (costgate check). */
  violation: 1,
  /** Bad usage or settings: nothing was sent. */
  usage: 2,
  /** The API refused the request or could not be reached. */
  api: 3,
  /** The output or a file could not be written (a full disk, a missing folder, no permission). */
  io: 4,
  /** An internal error: a bug in costgate. */
  internal: 5,
} as const;

/** ioHint says what to do about a file system error code. */
export function ioHint(code: string | undefined): string {
  switch (code) {
    case "ENOSPC":
      return "the disk is full; free some space or write elsewhere";
    case "ENOENT":
      return "the folder does not exist; create it or choose another path";
    case "EACCES":
    case "EPERM":
      return "no permission to write there; choose another path";
    case "EISDIR":
      return "that is a folder; give a file name";
    case "EROFS":
      return "the file system is read-only; write elsewhere";
    case "EFBIG":
    case "EDQUOT":
      return "the file is over a size limit or quota (ulimit -f, disk quota); free some space or write elsewhere";
    case "ENOTDIR":
      return "a part of the path is a file, not a folder; choose another path";
    default:
      return "check the path and the disk";
  }
}

/** An I/O error: a node system error of the file system or of a stream. */
function isIoError(e: unknown): e is NodeJS.ErrnoException {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return (
    e instanceof Error &&
    typeof code === "string" &&
    [
      "ENOSPC",
      "ENOENT",
      "EACCES",
      "EPERM",
      "EISDIR",
      "EROFS",
      "EIO",
      "EBADF",
      "EMFILE",
      "ENOTDIR",
      "EFBIG",
      "EDQUOT",
    ].includes(code) &&
    typeof (e as NodeJS.ErrnoException).syscall === "string"
  );
}

/** UsageError is a bad flag combination found by the CLI itself. */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * FileWriteError is a file the command could not write (a report, a step summary): exit 4. The old file,
 * if any, is as it was. `field` is the flag that named the file.
 */
export class FileWriteError extends Error {
  override name = "FileWriteError";
  readonly field: string;
  readonly path: string;
  readonly code: string | undefined;
  constructor(field: string, path: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    super(
      `${field}: cannot write ${path} (${code ?? "error"}): ${ioHint(code)}; the old file, if any, is unchanged`,
      {
        cause,
      },
    );
    this.field = field;
    this.path = path;
    this.code = code;
  }
}

/** exitCodeFor maps an error to the command's exit code. */
export function exitCodeFor(e: unknown): number {
  if (e instanceof UsageError || isConfigError(e)) return EXIT.usage;
  if (isCostgateError(e)) return EXIT.api;
  if (e instanceof FileWriteError || isIoError(e)) return EXIT.io;
  return EXIT.internal;
}

/** reportError prints one line on stderr: what failed and what to do. Never a stack trace unless COSTGATE_DEBUG. */
export function reportError(e: unknown): number {
  const code = exitCodeFor(e);
  let message = e instanceof Error ? e.message : String(e);
  if (code === EXIT.io && !(e instanceof FileWriteError)) {
    const io = e as NodeJS.ErrnoException;
    message = `cannot ${io.syscall === "open" || io.syscall === "write" ? "write" : io.syscall} ${io.path ?? "the output"} (${io.code}): ${ioHint(io.code)}`;
  } else if (code === EXIT.internal) {
    message = `internal error (a bug in costgate; please report it with the output of COSTGATE_DEBUG=1): ${message}`;
  }
  // one line without control characters or a secret of the run, whatever the error was built from
  process.stderr.write(`costgate: error: ${cleanText(message)}\n`);
  const stack = e instanceof Error ? e.stack : undefined;
  if (process.env["COSTGATE_DEBUG"] && stack && !isCostgateError(e))
    process.stderr.write(`${cleanText(stack, { multiline: true })}\n`);
  return code;
}
