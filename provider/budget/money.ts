/**
 * Money and figure formatting for the budget engine. Sums are done in big.js so that 0.1 + 0.2 is 0.3;
 * results leave as numbers rounded to cents.
 *
 * Formatters are built per call, not at module level: a Pulumi dynamic provider that imports the engine
 * serializes module-level values by copy, and an `Intl.NumberFormat` does not survive that.
 */
import Big from "big.js";

/**
 * sum adds amounts exactly.
 * @internal
 */
export function sum(values: Iterable<Big.BigSource>): Big {
  let total = new Big(0);
  for (const v of values) total = total.plus(v);
  return total;
}

/**
 * cents rounds to 2 decimals, half away from zero, and returns a number (never -0).
 * @internal
 */
export function cents(value: Big.BigSource): number {
  const n = new Big(value).round(2, Big.roundHalfUp).toNumber();
  return n === 0 ? 0 : n;
}

/**
 * tenthsDown rounds down to 1 decimal (runway: 9.96 days is reported as 9.9, never as 10.0).
 * @internal
 */
export function tenthsDown(value: Big.BigSource): number {
  const n = new Big(value).round(1, Big.roundDown).toNumber();
  return n === 0 ? 0 : n;
}

/**
 * tenths rounds to 1 decimal, half away from zero (ratios).
 * @internal
 */
export function tenths(value: Big.BigSource): number {
  const n = new Big(value).round(1, Big.roundHalfUp).toNumber();
  return n === 0 ? 0 : n;
}

/**
 * formatMoney writes an amount with thousands separators and 2 decimals: `12,400.00`, `-250.00`,
 * as the budget rules' messages do.
 *
 * @example
 * formatMoney(12400); // "12,400.00"
 */
export function formatMoney(value: number): string {
  return new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

/**
 * formatNumber writes a count or factor with thousands separators and at most `maxDecimals`
 * decimals, dropping trailing zeros: `14`, `2.5`.
 *
 * @example
 * formatNumber(2.5); // "2.5"
 */
export function formatNumber(value: number, maxDecimals = 2): string {
  return new Intl.NumberFormat("en-US", { maximumFractionDigits: maxDecimals }).format(value);
}

/**
 * formatFixed1 writes a number with exactly one decimal: `9.5`, `2.0`.
 * @internal
 */
export function formatFixed1(value: number): string {
  return new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

/**
 * formatDayOfMonth writes a day as `30 November` (UTC).
 * @internal
 */
export function formatDayOfMonth(day: string): string {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );
}
