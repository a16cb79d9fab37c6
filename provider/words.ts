/** plural says "1 day", "2 days": the count and its unit. */
export function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}
