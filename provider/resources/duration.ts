import { ConfigError } from "../errors";
import { MAX_DURATION_SECONDS, readDuration } from "../numbers";

/**
 * parseDuration reads seconds (a number) or a duration like "90s", "30m", "2h" or "1h30m" through the one
 * reader of durations (provider/numbers.ts), and names `field` when it refuses the value.
 * @internal
 */
export function parseDuration(value: number | string, field: string): number {
  const seconds = readDuration(value);
  if (seconds !== undefined) return seconds;
  if (typeof value === "number")
    throw new ConfigError(
      field,
      `must be a number of seconds from 0 to ${MAX_DURATION_SECONDS} (ten years), e.g. 3600`,
    );
  if (typeof value !== "string")
    throw new ConfigError(field, 'must be seconds or a duration such as "90s", "30m", "2h"');
  throw new ConfigError(
    field,
    `"${value}" is not a duration; use seconds or a form like "90s", "30m", "2h", "1h30m" (at most ten years)`,
  );
}
