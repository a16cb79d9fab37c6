/**
 * Every file the command writes: whole or not at all. A report is written to a temporary file beside
 * the old one and renamed over it, so a full disk leaves the old report as it was; an appended step
 * summary is one write, cut back to the file's old length if it fails part-way.
 */
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  openSync,
  realpathSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import type { DataFileLimit } from "../provider/data-file";
import { parseSize } from "../provider/files";
import { EXIT, FileWriteError, reportError } from "./errors";
import { type Flags, text } from "./options/parse";

/** writeAllTo writes every byte of `data` to `fd`: one write may take only part of it. */
function writeAllTo(fd: number, data: Buffer): void {
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done, data.length - done);
}

function statOrUndefined(path: string, follow: boolean): Stats | undefined {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

/** syncFolder flushes a folder's entries (the rename) where the system allows it; a failure is not the write's. */
function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // not every file system or platform syncs a folder: the rename is done either way
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * writeFileAtomic replaces `path` with `data`, or leaves it as it was: `data` goes to
 * `.<name>.<pid>.<random>.tmp` in the same folder (with the old file's mode and owner, or 0o666 less the
 * umask for a new file), is flushed to disk, then renamed over `path`. On any failure the temporary file
 * is removed. A symbolic link is followed (the file it points at is replaced); a device or a pipe
 * (`/dev/stdout`) is written in place, as it cannot be replaced.
 *
 * @example writeFileAtomic("report.html", html, "--html"); // FileWriteError (exit 4) on a full disk
 */
export function writeFileAtomic(path: string, data: string | Buffer, field: string): void {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  let target = path;
  let temp: string | undefined;
  let fd: number | undefined;
  try {
    const old = statOrUndefined(path, true);
    if (old?.isDirectory()) throw Object.assign(new Error("is a folder"), { code: "EISDIR" });
    if (old && !old.isFile()) {
      // a pipe or a device (`--html /dev/stdout`, /dev/null) is written as it is, never replaced
      fd = openSync(path, "w");
      writeAllTo(fd, bytes);
      return;
    }
    if (old && statOrUndefined(path, false)?.isSymbolicLink()) target = realpathSync(path);
    // node:crypto is required here, not at load: it costs ~8 ms of a start that writes no file
    const { randomBytes } = require("node:crypto") as typeof import("node:crypto");
    temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
    fd = openSync(temp, "wx", old ? old.mode & 0o7777 : 0o666);
    if (old) {
      // the umask applied on open: the old mode is set as it was, and the owner kept where allowed
      fchmodSync(fd, old.mode & 0o7777);
      const st = fstatSync(fd);
      if (st.uid !== old.uid || st.gid !== old.gid) {
        try {
          fchownSync(fd, old.uid, old.gid);
        } catch {
          // not root: the file becomes this user's, as any editor would leave it
        }
      }
    }
    writeAllTo(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, target);
    temp = undefined;
    syncFolder(dirname(target));
  } catch (e) {
    throw new FileWriteError(field, target, e);
  } finally {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // already failing; the write's error is the one reported
      }
    }
    if (temp !== undefined) {
      try {
        unlinkSync(temp);
      } catch {
        // never created, or already gone
      }
    }
  }
}

/**
 * appendWhole appends `text` to `path` (created if missing) in one write with O_APPEND, as GitHub's
 * `$GITHUB_STEP_SUMMARY` wants. If the write fails part-way (a full disk, a file size limit), the file is
 * cut back to its old length: it ends with the whole block or is as it was.
 *
 * @example appendWhole(process.env.GITHUB_STEP_SUMMARY, markdown, "--summary");
 */
export function appendWhole(path: string, text: string, field: string): void {
  const bytes = Buffer.from(text, "utf8");
  let fd: number | undefined;
  let before: number | undefined;
  try {
    fd = openSync(path, "a");
    const st = fstatSync(fd);
    if (st.isFile()) before = st.size;
    writeAllTo(fd, bytes);
    if (st.isFile()) fsyncSync(fd);
  } catch (e) {
    if (fd !== undefined && before !== undefined) {
      try {
        ftruncateSync(fd, before);
      } catch {
        // the truncation failed too: the write's error is the one reported
      }
    }
    throw new FileWriteError(field, path, e);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * writeOutputs runs a command's writes after its verdict `code` is known. Each write is tried, even
 * after one failed; each failure is one line on stderr. A failed write makes the exit code 4 only when
 * the command would have exited 0: a failing gate's 1 (or an unreachable API's 3) is never hidden.
 */
export function writeOutputs(code: number, writes: (() => void)[]): number {
  let failed = false;
  for (const write of writes) {
    try {
      write();
    } catch (e) {
      if (!(e instanceof FileWriteError)) throw e;
      reportError(e);
      failed = true;
    }
  }
  return failed && code === EXIT.ok ? EXIT.io : code;
}

/**
 * inputLimitFrom reads `--max-input-size` (a size such as 512MiB): the cap of every file or stream the
 * command reads. Without it COSTGATE_MAX_INPUT_SIZE or the defaults apply (64 MiB for a preview, 1 MiB
 * for a config file, a rate card, clouds.yaml or a CA bundle).
 */
export function inputLimitFrom(o: Flags): DataFileLimit {
  const v = text(o, "maxInputSize");
  return {
    maxBytes: v === undefined ? undefined : parseSize(v, "--max-input-size"),
    flag: "--max-input-size",
  };
}
