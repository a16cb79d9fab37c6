/**
 * Amounts as the endpoint may send them (docs/API.md#balance, docs/API.md#consumption leave types open): numbers or numeric
 * strings, summed in decimal arithmetic.
 */
// `import = require` keeps the declaration file usable without esModuleInterop (Pulumi's tsconfig)
import Big = require("big.js");

/**
 * parseAmount reads a number or a numeric string ("1312.40", "1 312,40", "1,312.40"); null and
 * undefined are 0. Returns undefined for anything else.
 */
export function parseAmount(value: unknown): Big | undefined {
  if (value === null || value === undefined) return new Big(0);
  if (typeof value === "number") return Number.isFinite(value) ? new Big(value) : undefined;
  if (typeof value !== "string") return undefined;
  let t = value.trim().replace(/[\s\u00a0\u202f_']/g, "");
  // A currency sign or ISO code at either end ("₽1312.40", "1312.40 RUB") is not part of the amount.
  t = t.replace(/^(?:\p{Sc}|[A-Z]{3}(?=[-+\d.]))/u, "").replace(/(?:\p{Sc}|(?<=[\d.])[A-Z]{3})$/u, "");
  if (t === "") return new Big(0);
  if (t.includes(",") && t.includes(".")) t = t.replace(/,/g, "");
  else if (/^-?\d{1,3}(,\d{3})+$/.test(t)) t = t.replace(/,/g, "");
  else if (/^-?\d+,\d+$/.test(t)) t = t.replace(",", ".");
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return undefined;
  try {
    return new Big(t);
  } catch {
    return undefined;
  }
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
