import { ConfigError } from "../errors";
import { readDecimal } from "../numbers";

/**
 * parseDuration reads seconds (a number) or a duration like "90s", "30m", "2h" or "1h30m".
 * @internal
 */
export function parseDuration(value: number | string, field: string): number {
  if (typeof value !== "number" && typeof value !== "string")
    throw new ConfigError(field, 'must be seconds or a duration such as "90s", "30m", "2h"');
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < 0)
      throw new ConfigError(field, "must be a non-negative number of seconds");
    return value;
  }
  const text = value.trim();
  const seconds = readDecimal(text, { signed: false });
  if (seconds !== undefined) return seconds;
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!m || text === "") {
    throw new ConfigError(
      field,
      `"${value}" is not a duration; use seconds or a form like "90s", "30m", "2h", "1h30m"`,
    );
  }
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}
