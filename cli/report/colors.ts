/**
 * Whether the terminal report is colored, and the colors it uses (picocolors).
 */
import { createColors } from "picocolors";

/** Colors are picocolors' formatters; with colors off each returns its text unchanged. */
export type Colors = ReturnType<typeof createColors>;

/** A stream that may be a terminal. */
export interface MaybeTty {
  isTTY?: boolean;
}

/**
 * useColor decides whether to color what goes to a stream: never with a non-empty `NO_COLOR`
 * (no-color.org); always with `FORCE_COLOR` set to anything but `0` or `false`; otherwise only on a
 * terminal that is not `TERM=dumb`. picocolors' own choice is not used as is: it also colors when
 * `CI` is set, even into a pipe.
 *
 * @example useColor(process.stdout) // false when piped
 */
export function useColor(stream: MaybeTty, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env["NO_COLOR"]) return false;
  const force = env["FORCE_COLOR"];
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  return stream.isTTY === true && env["TERM"] !== "dumb";
}

/** palette is picocolors with colors on or off. */
export function palette(enabled: boolean): Colors {
  return createColors(enabled);
}
