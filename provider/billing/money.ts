/**
 * Amounts as the endpoint may send them (docs/API.md#balance, docs/API.md#consumption leave types open): numbers or numeric
 * strings, read within documented bounds before any arithmetic, then summed in decimal arithmetic.
 */
// `import = require` keeps the declaration file usable without esModuleInterop (Pulumi's tsconfig)
import Big = require("big.js");

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

/** sum adds decimals exactly. */
export function sum(values: Iterable<Big>): Big {
  let total = new Big(0);
  for (const v of values) total = total.plus(v);
  return total;
}

/** toNumber turns a decimal into the nearest number (exact for amounts in cents). */
export function toNumber(b: Big): number {
  return Number(b.toString());
}

/** cents rounds half-up to 2 decimals. */
export function cents(b: Big): number {
  return Number(b.round(2, Big.roundHalfUp).toFixed(2));
}
