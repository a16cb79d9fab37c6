/**
 * The project id: one parser, for flags, environment, files and the wire's arguments.
 */
import { ConfigError } from "../errors";

/**
 * parseProjectId accepts the project id (`externalSubscriptionId`, docs/API.md#billing-parameters): a positive integer,
 * as a number or a string of digits.
 */
export function parseProjectId(value: unknown, field = "projectId"): number {
  const hint =
    "give the project id from the project card in the cloud servers section: a positive integer, e.g. 4242";
  // shown as given: a number too large to be exact would otherwise be echoed rounded (1e20)
  const given = value;
  if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) value = Number(value);
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    const shown =
      given === undefined
        ? "missing"
        : typeof given === "string" && /^\s*\d+\s*$/.test(given) && value !== 0
          ? `"${given.trim()}" is too large for a project id`
          : typeof given === "number" && Math.abs(given) > Number.MAX_SAFE_INTEGER
            ? `${given} is too large for a project id (past 2^53, a number is no longer exact)`
            : `${JSON.stringify(given)} is not a project id (it must be 1 or more)`;
    throw new ConfigError(field, `${shown}; ${hint}`);
  }
  return value;
}

/**
 * parseProjectIds reads a comma list of project ids (`4242,4243`), each by {@link parseProjectId}, in order
 * and without repeats; `field` names the setting in errors.
 *
 * @example parseProjectIds("7, 8,7", "--project-id"); // [7, 8]
 */
export function parseProjectIds(
  value: string | number | readonly (string | number)[],
  field = "projectId",
): number[] {
  const items = typeof value === "string" ? value.split(",") : typeof value === "number" ? [value] : value;
  return [...new Set(items.map((v) => parseProjectId(v, field)))];
}
