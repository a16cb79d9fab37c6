/** money formats an amount with thousands separators and 2 decimals. */
export function money(n: number): string {
  return new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
}
