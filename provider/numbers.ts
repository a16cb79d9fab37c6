/**
 * The one reader of numbers written as text by a user (a flag, an environment variable, a resource
 * argument, a config key): decimal digits only. `Number()` alone would also read `0x10` as 16, `1e3` as
 * 1000 and an empty text as 0. Each surface words its own error around these (the CLI names the flag,
 * the library the setting).
 */

const DECIMAL = /^\s*-?\d+(\.\d+)?\s*$/;
const WHOLE = /^\s*\d+\s*$/;

/**
 * readDecimal is the number a decimal text writes (`45000`, `-3`, `2.5`, spaces around allowed), or
 * undefined for anything else (`0x10`, `1e3`, `""`, `Infinity`). With `signed: false` a minus is refused.
 * @internal
 */
export function readDecimal(text: unknown, o: { signed?: boolean } = {}): number | undefined {
  if (typeof text !== "string" || !DECIMAL.test(text)) return undefined;
  if (o.signed === false && text.trim().startsWith("-")) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * readWhole is the whole number a text of decimal digits writes (`42`, spaces around allowed), or
 * undefined for anything else or past Number.MAX_SAFE_INTEGER.
 * @internal
 */
export function readWhole(text: unknown): number | undefined {
  if (typeof text !== "string" || !WHOLE.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}
