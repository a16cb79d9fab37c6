/**
 * Reading a file or a stream with a size cap: a preview, a config file, a rate card, clouds.yaml, a CA
 * bundle. A file is measured before it is read; a stream (standard input, a pipe, a device) is read
 * until the cap and no further. Too large is a ConfigError naming the field and how to raise the cap.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { ConfigError } from "./errors";

const MiB = 1024 * 1024;

/** The default caps: a `pulumi preview --json` may be large; a settings file is a few kilobytes. */
export const INPUT_CAPS = { preview: 64 * MiB, settings: 1 * MiB } as const;

/** The environment variable that sets every cap (the CLI's `--max-input-size` wins over it). */
export const MAX_INPUT_ENV = "COSTGATE_MAX_INPUT_SIZE";

/** What a read is of: its default cap, and how the message names it. */
export type InputKind = keyof typeof INPUT_CAPS;

/** How a bounded read is capped and named. */
export interface BoundedReadOptions {
  /** The flag, variable or file named in errors, e.g. `--preview`. */
  field: string;
  /** Which default cap applies when neither `maxBytes` nor COSTGATE_MAX_INPUT_SIZE sets one. */
  kind: InputKind;
  /** The cap in bytes (the CLI's `--max-input-size`). */
  maxBytes?: number | undefined;
  /** The flag that raises the cap where this read happens, e.g. `--max-input-size`; else only the variable is named. */
  flag?: string | undefined;
  /** What to do about a file that cannot be read (default "check the path"). */
  hint?: string | undefined;
}

const UNITS: Record<string, number> = { "": 1, k: 1024, m: MiB, g: 1024 * MiB };

/**
 * parseSize reads a size such as `512MiB`, `64MB`, `2g` or `1048576` (bytes). Units are powers of 1024,
 * whether written K, KB or KiB.
 *
 * @example parseSize("512MB", "--max-input-size") // 536870912
 */
export function parseSize(text: string, field: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?\s*$/i.exec(text);
  const bytes = m ? Math.floor(Number(m[1]) * (UNITS[(m[2] ?? "").toLowerCase()] ?? 1)) : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new ConfigError(field, `"${text}" is not a size; give bytes or a size with a unit, e.g. 512MiB`);
  }
  return bytes;
}

/** formatSize writes a cap for a message: `64 MiB`, `1.5 KiB`, `900 bytes`. */
export function formatSize(bytes: number): string {
  for (const [unit, size] of [
    ["GiB", 1024 * MiB],
    ["MiB", MiB],
    ["KiB", 1024],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** inputCap is the cap of a read: the given one, else COSTGATE_MAX_INPUT_SIZE, else the kind's default. */
export function inputCap(o: BoundedReadOptions, env: NodeJS.ProcessEnv = process.env): number {
  if (o.maxBytes !== undefined) return o.maxBytes;
  const fromEnv = env[MAX_INPUT_ENV];
  return fromEnv?.trim() ? parseSize(fromEnv, MAX_INPUT_ENV) : INPUT_CAPS[o.kind];
}

/** The message of an input over its cap; `size` when known (a file), to suggest a cap that fits it. */
function tooLarge(o: BoundedReadOptions, what: string, cap: number, size?: number): ConfigError {
  // a power of two at least twice the cap and above the size
  const next = formatSize(2 ** Math.ceil(Math.log2(Math.max(cap * 2, (size ?? 0) + 1)))).replace(" ", "");
  const raise = o.flag ? `${o.flag} ${next} (or ${MAX_INPUT_ENV})` : `${MAX_INPUT_ENV}=${next}`;
  return new ConfigError(
    o.field,
    `${what} is over the ${formatSize(cap)} cap on this input; check that it is the right one, or raise the cap with ${raise}`,
  );
}

function unreadable(path: string, o: BoundedReadOptions, cause: unknown): ConfigError {
  const code = (cause as NodeJS.ErrnoException).code ?? "error";
  const what = o.field === path ? "cannot be read" : `cannot read ${path}`;
  return new ConfigError(o.field, `${what} (${code}); ${o.hint ?? "check the path"}`);
}

/**
 * readBounded reads a file as UTF-8, refusing one larger than the cap: a regular file by its size before
 * a byte is read, anything else (a pipe, a device, /proc) by stopping at the cap. A file that cannot be
 * opened or read is a ConfigError naming the field and the system's code.
 *
 * @example const text = readBounded("costgate.yaml", { field: "--config", kind: "settings" });
 */
export function readBounded(path: string, o: BoundedReadOptions): string {
  const cap = inputCap(o);
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (cause) {
    throw unreadable(path, o, cause);
  }
  try {
    const st = fstatSync(fd);
    const name = o.field === path ? "the file" : path;
    if (st.isDirectory()) throw new ConfigError(o.field, `${name} is a folder; give a file`);
    if (st.isFile() && st.size > cap) throw tooLarge(o, `${name} (${formatSize(st.size)})`, cap, st.size);
    const chunks: Buffer[] = [];
    let total = 0;
    // a regular file is read into one buffer of its size and a byte more (which shows it grew): a 13 MB
    // preview read in 1 MiB chunks and joined took 1.6x as long
    let want = st.isFile() ? st.size + 1 : MiB;
    for (;;) {
      // at most one byte past the cap: enough to know it is too large
      const buf = Buffer.allocUnsafe(Math.min(want, cap + 1 - total));
      want = MiB;
      let n: number;
      try {
        n = readSync(fd, buf, 0, buf.length, null);
      } catch (cause) {
        throw unreadable(path, o, cause);
      }
      if (n === 0) break;
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
      total += n;
      if (total > cap) throw tooLarge(o, name, cap);
    }
    return (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total)).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * readStreamBounded reads a stream (standard input) as UTF-8 to its end, or stops and destroys it once
 * it holds more than the cap. Standard input redirected from a file is measured before it is read.
 *
 * @example const text = await readStreamBounded(process.stdin, { field: "--preview", kind: "preview" });
 */
export async function readStreamBounded(
  stream: NodeJS.ReadableStream & { fd?: number; destroy?: () => void },
  o: BoundedReadOptions,
  what = "standard input",
): Promise<string> {
  const cap = inputCap(o);
  if (typeof stream.fd === "number") {
    try {
      const st = fstatSync(stream.fd);
      if (st.isFile() && st.size > cap) {
        stream.destroy?.();
        throw tooLarge(o, `${what} (${formatSize(st.size)})`, cap, st.size);
      }
    } catch (e) {
      if (e instanceof ConfigError) throw e;
    }
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    total += b.length;
    if (total > cap) {
      stream.destroy?.();
      throw tooLarge(o, what, cap);
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks, total).toString("utf8");
}
