/**
 * UTC day arithmetic for the billing data: a day is its index since 1970-01-01 (UTC).
 */

/** DAY_MS is one day in milliseconds. */
export const DAY_MS = 86_400_000;

const PERIOD_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** dayIndexOf returns the UTC day index of an instant. */
export function dayIndexOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** dayString returns `YYYY-MM-DD` for a day index. */
export function dayString(index: number): string {
  return new Date(index * DAY_MS).toISOString().slice(0, 10);
}

/** dayTimestamp returns `YYYY-MM-DDT00:00:00.000Z` for a day index. */
export function dayTimestamp(index: number): string {
  return new Date(index * DAY_MS).toISOString();
}

/**
 * parsePeriodBound reads a period bound in the only format the API allows (docs/API.md#billing-parameters, docs/API.md#limits:
 * `YYYY-MM-DDTHH:mm:ss.sssZ`, a real calendar instant) and returns its epoch milliseconds,
 * or undefined for anything else.
 */
export function parsePeriodBound(raw: string): number | undefined {
  if (!PERIOD_RE.test(raw)) return undefined;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms) || new Date(ms).toISOString() !== raw) return undefined;
  return ms;
}

/** parseDay reads `YYYY-MM-DD` into a day index, or undefined. */
export function parseDay(raw: string): number | undefined {
  if (!DAY_RE.test(raw)) return undefined;
  const ms = Date.parse(`${raw}T00:00:00.000Z`);
  if (Number.isNaN(ms) || dayString(dayIndexOf(ms)) !== raw) return undefined;
  return dayIndexOf(ms);
}
