/**
 * The parsers of option values, one per kind — texts, decimals, whole numbers, durations — each naming
 * the flag or variable in its error. Light on purpose: the command line's start imports it.
 */
import { readDecimal, readDuration, readWhole } from "../../provider/numbers";
import { UsageError } from "../errors";

/** Flags as commander gives them: a text, a switch, a repeated option's list. */
export type Flags = Readonly<Record<string, string | boolean | string[] | undefined>>;

/** text is a flag's value when it was given as a text. */
export function text(o: Flags, key: string): string | undefined {
  const v = o[key];
  return typeof v === "string" ? v : undefined;
}

/**
 * decimal reads a number written in decimal (`45000`, `-3`, `2.5`): `Number()` would also read `0x10`
 * as 16 and `1e3` as 1000, and an empty text as 0.
 */
export function decimal(v: unknown, flag: string, example = "45000"): number {
  const n = readDecimal(v);
  if (n === undefined)
    throw new UsageError(
      `${flag}: "${String(v)}" is not a number; write it in decimal, e.g. ${flag} ${example}`,
    );
  return n;
}

/** wholeNumber reads a whole number of `min` or more (a count, a number of days); `example` ends the error. */
export function wholeNumber(v: unknown, setting: string, min = 1, example?: string): number {
  const n = readWhole(v);
  if (n === undefined || n < min)
    throw new UsageError(
      `${setting}: "${String(v)}" is not a whole number of ${min} or more${example ? `; e.g. ${example}` : ""}`,
    );
  return n;
}

/**
 * seconds reads a duration through the one reader of durations (provider/numbers.ts: `30`, `2.5`, `90s`,
 * `1h30m`), more than 0 (or 0 too, with `allowZero`) and at most `maxMs` milliseconds, as milliseconds.
 * `refused` words the error of a value out of bounds or not a duration, when the setting has its own
 * words (e.g. `--grace-period`).
 */
export function seconds(
  v: unknown,
  flag: string,
  maxMs: number,
  opts: { allowZero?: boolean; refused?: (raw: string) => string } = {},
): number {
  const s = readDuration(v);
  const ms = s === undefined ? Number.NaN : s * 1000;
  const inRange = opts.allowZero ? ms >= 0 : ms > 0;
  if (!inRange || !Number.isFinite(ms) || (opts.refused && ms > maxMs)) {
    if (opts.refused) throw new UsageError(opts.refused(String(v)));
    // a number past the reader's ten years is over every cap here: said as such, not as "not a number"
    if (s === undefined && typeof v === "string" && /^ *\d+(\.\d+)? *$/.test(v))
      throw tooLong(v, flag, maxMs);
    throw new UsageError(`${flag}: "${String(v)}" is not a positive number of seconds; e.g. ${flag} 30`);
  }
  if (ms > maxMs) throw tooLong(v, flag, maxMs);
  return ms;
}

function tooLong(v: unknown, flag: string, maxMs: number): UsageError {
  return new UsageError(
    `${flag}: "${String(v)}" seconds is longer than a timer can hold; give at most ${Math.floor(maxMs / 1000)} (about ${Math.floor(maxMs / 86_400_000)} days)`,
  );
}
