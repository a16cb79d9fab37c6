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

/** The longest duration read, in seconds (ten years): past it a value is a slip, not a setting. */
export const MAX_DURATION_SECONDS = 10 * 365 * 86_400;

// seconds in decimal (`90`, `2.5`), or whole hours, minutes and seconds in that order (`1h30m`, `90s`)
const SECONDS = /^\d+(\.\d+)?$/;
const UNITS = /^(?:(\d{1,12})h)?(?:(\d{1,12})m)?(?:(\d{1,12})s)?$/;

/**
 * readDuration is the one reader of durations — flags, environment variables, resource arguments, config
 * keys: a number of seconds (`30`, `2.5`; a JS number as it is) or whole hours, minutes and seconds
 * (`90s`, `15m`, `1h30m`), spaces around allowed. Anything else is undefined: a sign, an exponent
 * (`1e3`), hex (`0x10`), a control character, `Infinity`, an empty text, or more than
 * {@link MAX_DURATION_SECONDS}. Each surface words its own error around it, naming the setting.
 * @internal
 */
export function readDuration(value: unknown): number | undefined {
  let seconds: number;
  if (typeof value === "number") seconds = value;
  else if (typeof value !== "string") return undefined;
  else {
    const text = value.replace(/^ +| +$/g, "");
    if (SECONDS.test(text)) seconds = Number(text);
    else {
      const m = text === "" ? null : UNITS.exec(text);
      if (!m) return undefined;
      seconds = Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
    }
  }
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= MAX_DURATION_SECONDS ? seconds : undefined;
}
