/**
 * Money, the one module: amounts as the endpoint may send them (docs/API.md#balance, docs/API.md#consumption
 * leave types open) read within documented bounds before any arithmetic, sums in decimal arithmetic (big.js,
 * so 0.1 + 0.2 is 0.3), results rounded to cents, and the figures written the way every message and output
 * writes them. provider/billing/money.ts and provider/budget/money.ts re-export from here.
 *
 * Formatters are built once per process, on first use, and kept by {@link perProcess} (provider/once.ts): on
 * `globalThis` under a registered symbol, not in a module-level variable. A Pulumi dynamic provider that imports this module
 * serializes the module-level values its functions capture by copy, and an `Intl.NumberFormat` does not
 * survive that; `globalThis` and `Symbol.for` are references the serializer leaves as they are.
 */
// `import = require` keeps the declaration file usable without esModuleInterop (Pulumi's tsconfig)
import Big = require("big.js");

import { perProcess } from "./once";

/** The largest amount read from the wire, in magnitude: a trillion (±1e12) of the billing currency. */
export const MAX_AMOUNT = 1e12;
/** The most digits after the decimal point an amount from the wire may carry. */
export const MAX_AMOUNT_DECIMALS = 20;
/** The longest amount text read, in characters, before any parsing. */
export const MAX_AMOUNT_CHARS = 64;

/** The bounds in words, for messages. @internal */
export const AMOUNT_BOUNDS = `costgate reads amounts up to ±1e12 with at most ${MAX_AMOUNT_DECIMALS} decimals, in at most ${MAX_AMOUNT_CHARS} characters`;

/** The outcome of reading one amount: its decimal, or why it cannot be read. @internal */
export type AmountReading = { ok: true; value: Big } | { ok: false; reason: string };

const DECIMAL = /^([-+]?)(\d*)(?:\.(\d*))?(?:e([-+]?\d+))?$/i;
/** Plain decimal text surely within the bounds: at most 12 integer digits, at most 20 decimals, no sign but "-". */
const PLAIN = /^-?\d{1,12}(?:\.\d{1,20})?$/;
/** A digit other than 0: text that PLAIN accepts and that has one is not zero. */
const NONZERO = /[1-9]/;

/**
 * readAmount reads a number or a numeric string ("1312.40", "1 312,40", "1,312.40", "-12.5"); null and
 * undefined are 0. It refuses, before any arithmetic, text longer than {@link MAX_AMOUNT_CHARS}, what is
 * not finite, beyond ±{@link MAX_AMOUNT} or finer than {@link MAX_AMOUNT_DECIMALS} decimals: time and
 * memory stay bounded whatever the endpoint sends ("1e300000000" is refused, never expanded).
 * @internal
 */
export function readAmount(value: unknown): AmountReading {
  if (value === null || value === undefined) return { ok: true, value: new Big(0) };
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return { ok: false, reason: "not a finite number" };
    return readText(String(value));
  }
  if (typeof value !== "string") return { ok: false, reason: "not a number or a numeric string" };
  // plain text ("1312.40") has nothing the steps below remove or rewrite: straight to readText
  if (PLAIN.test(value)) return readText(value);
  if (value.length > MAX_AMOUNT_CHARS)
    return { ok: false, reason: `longer than ${MAX_AMOUNT_CHARS} characters` };
  let t = value.trim().replace(/[\s\u00a0\u202f_']/g, "");
  // A currency sign or ISO code at either end ("₽1312.40", "1312.40 RUB") is not part of the amount.
  t = t.replace(/^(?:\p{Sc}|[A-Z]{3}(?=[-+\d.]))/u, "").replace(/(?:\p{Sc}|(?<=[\d.])[A-Z]{3})$/u, "");
  if (t === "") return { ok: true, value: new Big(0) };
  if (t.includes(",") && t.includes(".")) t = t.replace(/,/g, "");
  else if (/^-?\d{1,3}(,\d{3})+$/.test(t)) t = t.replace(/,/g, "");
  else if (/^-?\d+,\d+$/.test(t)) t = t.replace(",", ".");
  return readText(t);
}

/** readText reads plain decimal text (at most MAX_AMOUNT_CHARS long), checking its scale before big.js sees it. */
function readText(t: string): AmountReading {
  // what surely passes every check below is read at once (the same value: big.js gets the same text); most
  // amounts of a series are, and `check` reads a hundred projects' days
  if (PLAIN.test(t) && NONZERO.test(t)) return { ok: true, value: new Big(t) };
  const m = DECIMAL.exec(t);
  const int = m?.[2] ?? "";
  const frac = m?.[3] ?? "";
  if (!m || int + frac === "") return { ok: false, reason: "not a decimal number" };
  const digits = int + frac;
  const lead = digits.length - digits.replace(/^0+/, "").length;
  if (lead === digits.length) return { ok: true, value: new Big(0) };
  const trail = digits.length - digits.replace(/0+$/, "").length;
  // where the decimal point falls in `digits`: a finite Number, as the text is short
  const point = int.length + Number(m[4] ?? 0);
  // the place of the first significant digit: 10^order ≤ |x| < 10^(order+1)
  const order = point - lead - 1;
  if (order > 12) return { ok: false, reason: "beyond ±1e12" };
  if (digits.length - trail - point > MAX_AMOUNT_DECIMALS)
    return { ok: false, reason: `more than ${MAX_AMOUNT_DECIMALS} decimals` };
  let value: Big;
  try {
    // big.js takes no leading "+"
    value = new Big(t.replace(/^\+/, ""));
  } catch {
    return { ok: false, reason: "not a decimal number" };
  }
  if (value.abs().gt(MAX_AMOUNT)) return { ok: false, reason: "beyond ±1e12" };
  return { ok: true, value };
}

/** Plain text of whole cents surely within the bounds: at most 12 integer digits, at most 2 decimals. */
const CENTS_TEXT = /^-?\d{1,12}(?:\.\d{1,2})?$/;

/**
 * centsAmount is the fast path of {@link readAmount} for what a billing answer almost always holds: a
 * number or plain text of whole cents within ±{@link MAX_AMOUNT} (`2168.46`, `"1312.40"`, `0`; null is 0). It gives
 * that amount as a number (never -0), which is exactly the value readAmount reads: c/100 for a whole number
 * c of cents below 1e14 in magnitude has at most 15 significant digits, so the number nearest to it and its
 * shortest text are that decimal. Anything else (more decimals, signs, spaces, exponents, out of bounds, not
 * a number) is undefined: read it with readAmount, which also words its refusals.
 * @internal
 */
export function centsAmount(value: unknown): number | undefined {
  let n: number;
  if (value === null || value === undefined) return 0;
  if (typeof value === "number") n = value;
  else if (typeof value === "string" && value.length <= 16 && CENTS_TEXT.test(value)) n = Number(value);
  else return undefined;
  // a NaN or an infinity fails both tests; a whole number of cents survives the round trip
  if (!(Math.abs(n) <= MAX_AMOUNT) || Math.round(n * 100) / 100 !== n) return undefined;
  return n === 0 ? 0 : n;
}

/**
 * parseAmount reads a number or a numeric string ("1312.40", "1 312,40", "1,312.40"); null and
 * undefined are 0. Returns undefined for anything else, and for amounts beyond ±1e12 or with more than
 * 20 decimals (see {@link readAmount}).
 */
export function parseAmount(value: unknown): Big | undefined {
  const r = readAmount(value);
  return r.ok ? r.value : undefined;
}

/**
 * quoteWire shows a value from the wire in a message: a string without control or format characters,
 * its first 40 characters quoted (with its length when longer); a number as written; else its type.
 * @internal
 */
export function quoteWire(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") {
    const clean = value.slice(0, 400).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "");
    if (value.length <= 40 && clean.length <= 40) return JSON.stringify(clean);
    return `${JSON.stringify(clean.slice(0, 40))}… (${value.length} characters)`;
  }
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * sum adds amounts exactly.
 * @internal
 */
export function sum(values: Iterable<Big.BigSource>): Big {
  let total = new Big(0);
  for (const v of values) total = total.plus(v);
  return total;
}

/** toNumber turns a decimal into the nearest number (exact for amounts in cents). */
export function toNumber(b: Big): number {
  return Number(b.toString());
}

/**
 * roundedShortest rounds a number's shortest text (what big.js reads of a number) to `dp` decimals, half away
 * from zero (`up`) or toward zero, without a decimal object: the kept digits as a whole number of units
 * (at most 15 digits, so exact), plus one when the first dropped digit is 5 or more and `up`, divided by
 * 10^dp — the double nearest to that decimal, as Number() of big.js's text is. Undefined for what it does not
 * take (not finite, exponent form, 1e13 or more): the caller uses big.js. test/hostile/perf6.test.ts holds it
 * to big.js on any double.
 */
function roundedShortest(n: number, dp: 1 | 2, up: boolean): number | undefined {
  const s = String(n);
  if (!Number.isFinite(n) || s.includes("e")) return undefined;
  const neg = n < 0;
  const abs = neg ? s.slice(1) : s;
  const dot = abs.indexOf(".");
  // a whole number, or no more decimals than kept: itself (never -0)
  if (dot === -1 || abs.length - dot - 1 <= dp) return n === 0 ? 0 : n;
  if (dot > 13) return undefined;
  let units = Number(abs.slice(0, dot) + abs.slice(dot + 1, dot + 1 + dp));
  if (up && abs.charCodeAt(dot + 1 + dp) >= 53 /* "5" */) units += 1;
  if (units === 0) return 0;
  const r = units / (dp === 2 ? 100 : 10);
  return neg ? -r : r;
}

/**
 * cents rounds to 2 decimals, half away from zero, and returns a number (never -0).
 * @internal
 */
export function cents(value: Big.BigSource): number {
  const fast = typeof value === "number" ? roundedShortest(value, 2, true) : undefined;
  if (fast !== undefined) return fast;
  const n = new Big(value).round(2, Big.roundHalfUp).toNumber();
  return n === 0 ? 0 : n;
}

/**
 * tenthsDown rounds down to 1 decimal (runway: 9.96 days is reported as 9.9, never as 10.0).
 * @internal
 */
export function tenthsDown(value: Big.BigSource): number {
  const fast = typeof value === "number" ? roundedShortest(value, 1, false) : undefined;
  if (fast !== undefined) return fast;
  const n = new Big(value).round(1, Big.roundDown).toNumber();
  return n === 0 ? 0 : n;
}

/**
 * tenths rounds to 1 decimal, half away from zero (ratios).
 * @internal
 */
export function tenths(value: Big.BigSource): number {
  const fast = typeof value === "number" ? roundedShortest(value, 1, true) : undefined;
  if (fast !== undefined) return fast;
  const n = new Big(value).round(1, Big.roundHalfUp).toNumber();
  return n === 0 ? 0 : n;
}

/**
 * wholeCents is `x` as a whole number of cents when it surely is one: |x| ≤ 1e12 and `x` is the number nearest
 * to c/100, so its shortest text (what big.js reads) is that decimal; else undefined. -0 is 0. The budget
 * rules' sums, averages and quotients of such amounts are exact in integers (test/hostile/perf8.test.ts).
 * @internal
 */
export function wholeCents(x: number): number | undefined {
  if (!(Math.abs(x) <= 1e12)) return undefined;
  const c = Math.round(x * 100);
  return c / 100 === x ? (c === 0 ? 0 : c) : undefined;
}

/**
 * fromCents is a whole number of cents as the number big.js would give of its decimal (`toNumber`), never -0.
 * @internal
 */
export function fromCents(c: number): number {
  return c === 0 ? 0 : c / 100;
}

/**
 * quotientHalfAway is n / d rounded to a whole number half away from zero (big.js's roundHalfUp), for safe
 * integers n and d > 0; never -0.
 * @internal
 */
export function quotientHalfAway(n: number, d: number): number {
  const a = Math.abs(n);
  const rest = a % d;
  const q = (a - rest) / d + (2 * rest >= d ? 1 : 0);
  return q === 0 ? 0 : Math.sign(n) * q;
}

/** The formatters of this process, by locale and options (see the module's comment). */
type IntlCache = Map<string, Intl.NumberFormat | Intl.DateTimeFormat>;

function newIntlCache(): IntlCache {
  return new Map();
}

/** formatter is the process's formatter under `key`, built by `make` on first use (kept by {@link perProcess}). */
function formatter<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => F): F {
  const cache = perProcess(newIntlCache);
  let f = cache.get(key) as F | undefined;
  if (!f) {
    f = make();
    cache.set(key, f);
  }
  return f;
}

/**
 * numberFormat is `new Intl.NumberFormat(locale, options)`, built once per process for each locale and options
 * (or each `key` the caller names them by: a fixed key spares building one from the options per call).
 * @internal
 */
export function numberFormat(
  locale: string,
  options: Intl.NumberFormatOptions,
  key = `n ${locale} ${JSON.stringify(options)}`,
): Intl.NumberFormat {
  return formatter(key, () => new Intl.NumberFormat(locale, options));
}

/**
 * dateFormat is `new Intl.DateTimeFormat(locale, options)`, built once per process for each locale and options
 * (or each `key` the caller names them by).
 * @internal
 */
export function dateFormat(
  locale: string,
  options: Intl.DateTimeFormatOptions,
  key = `d ${locale} ${JSON.stringify(options)}`,
): Intl.DateTimeFormat {
  return formatter(key, () => new Intl.DateTimeFormat(locale, options));
}

/**
 * formatMoney writes an amount with thousands separators and 2 decimals: `12,400.00`, `-250.00`,
 * as the budget rules' messages and the command line do.
 *
 * @example
 * formatMoney(12400); // "12,400.00"
 */
export function formatMoney(value: number): string {
  // an amount in cents (its shortest decimal form has at most two decimals, as every amount costgate
  // computes has) is written without Intl: the first Intl.NumberFormat of a process costs ~18 ms (ICU's
  // data), a third of what `costgate balance` spends over its request. Anything else (more decimals, -0,
  // 1e12 and over, NaN) goes to Intl; the two agree on every input (test/hostile/perf.test.ts).
  const m = CENTS.exec(String(value));
  if (m && !Object.is(value, -0)) {
    return `${m[1]}${(m[2] as string).replace(THOUSANDS, ",")}.${(m[3] ?? "").padEnd(2, "0")}`;
  }
  // a fixed key: building one from the options cost more than the format itself
  return numberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }, "money").format(value);
}

/** Below 1e12, a number's shortest decimal form with at most two decimals: sign, whole part, decimals. */
const CENTS = /^(-?)(\d{1,12})(?:\.(\d{1,2}))?$/;
/** The places in a whole part where en-US puts a comma. */
const THOUSANDS = /\B(?=(\d{3})+$)/g;

/**
 * formatNumber writes a count or factor with thousands separators and at most `maxDecimals`
 * decimals, dropping trailing zeros: `14`, `2.5`.
 *
 * @example
 * formatNumber(2.5); // "2.5"
 */
export function formatNumber(value: number, maxDecimals = 2): string {
  const fixed = fixedWithoutIntl(value, maxDecimals);
  if (fixed !== undefined) return fixed.replace(TRAILING_ZEROS, "");
  return numberFormat("en-US", { maximumFractionDigits: maxDecimals }, `number ${maxDecimals}`).format(value);
}

/**
 * formatFixed1 writes a number with exactly one decimal: `9.5`, `2.0`.
 * @internal
 */
export function formatFixed1(value: number): string {
  const fixed = fixedWithoutIntl(value, 1);
  if (fixed !== undefined) return fixed;
  return numberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 }, "fixed1").format(
    value,
  );
}

/** Zeros that end the decimals, and the point when nothing is left after it. */
const TRAILING_ZEROS = /\.?0+$(?<=\.\d*)/;

/**
 * fixedWithoutIntl writes `value` with `decimals` decimals and en-US thousands separators as
 * `Intl.NumberFormat` would (both round the number's shortest decimal form, `String(value)`, half away
 * from zero: 0.15 is "0.2"), without building a formatter: the first of a process costs ~16 ms of
 * ICU's data. Undefined where it does not: -0, a negative that rounds to zero, 1e15 and over, NaN, more
 * than 6 decimals. A property test holds the two equal on any double (test/hostile/perf.test.ts).
 */
function fixedWithoutIntl(value: number, decimals: number): string | undefined {
  const abs = Math.abs(value);
  if (!(abs < 1e15) || !Number.isInteger(decimals) || decimals < 0 || decimals > 6 || Object.is(value, -0))
    return undefined;
  const text = String(abs);
  const m = SHORTEST.exec(text);
  let digits: string;
  if (m) {
    const whole = m[1] as string;
    const frac = m[2] ?? "";
    digits = whole + frac.slice(0, decimals).padEnd(decimals, "0");
    if (frac.charCodeAt(decimals) >= 0x35) digits = plusOne(digits);
  } else if (abs < 1e-6 && decimals < 6) {
    digits = "0".repeat(decimals + 1); // below 1e-6 String writes an exponent; it rounds to 0 here
  } else return undefined;
  if (value < 0 && /^0*$/.test(digits)) return undefined; // Intl's "-0"
  const whole = digits.slice(0, digits.length - decimals).replace(THOUSANDS, ",");
  return `${value < 0 ? "-" : ""}${whole}${decimals ? `.${digits.slice(digits.length - decimals)}` : ""}`;
}
/** A shortest decimal form without exponent: whole part, decimals. */
const SHORTEST = /^(\d+)(?:\.(\d+))?$/;

/** plusOne adds one to a string of decimal digits: "199" is "200", "99" is "100". */
function plusOne(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === "9") i--;
  if (i < 0) return `1${"0".repeat(digits.length)}`;
  return `${digits.slice(0, i)}${String.fromCharCode(digits.charCodeAt(i) + 1)}${"0".repeat(digits.length - i - 1)}`;
}
