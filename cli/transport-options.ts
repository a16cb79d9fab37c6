/**
 * The flags of every command that talks to an endpoint: --timeout and --retries.
 */
import type { Command } from "commander";
import { MAX_TIMEOUT_MS, type RetryOptions, type Timeouts } from "../provider/http";
import { UsageError } from "./errors";

/** addTransportOptions adds --timeout and --retries to a command. */
export function addTransportOptions(cmd: Command): Command {
  return cmd
    .option("--timeout <seconds>", "timeout of each request in seconds (default 60; env COSTGATE_TIMEOUT_MS)")
    .option(
      "--retries <n>",
      "retries after a failed attempt, within 20 s (default 2; 0: none; env COSTGATE_RETRIES)",
    );
}

/** transportArgsFrom reads --timeout and --retries; a bad value is a UsageError naming the flag. */
export function transportArgsFrom(o: Readonly<Record<string, unknown>>): {
  timeouts?: Timeouts;
  retry?: RetryOptions;
} {
  const out: { timeouts?: Timeouts; retry?: RetryOptions } = {};
  const timeout = o["timeout"];
  if (typeof timeout === "string") {
    const ms = Number(timeout) * 1000;
    if (!/^\s*\d+(\.\d+)?\s*$/.test(timeout) || !Number.isFinite(ms) || ms <= 0) {
      throw new UsageError(`--timeout: "${timeout}" is not a positive number of seconds; e.g. --timeout 30`);
    }
    if (ms > MAX_TIMEOUT_MS) {
      throw new UsageError(
        `--timeout: "${timeout}" seconds is longer than a timer can hold; give at most ${Math.floor(MAX_TIMEOUT_MS / 1000)} (about 24 days)`,
      );
    }
    out.timeouts = { totalMs: ms, headersMs: ms, bodyMs: ms };
  }
  const retries = o["retries"];
  if (typeof retries === "string") {
    const n = Number(retries);
    if (retries.trim() === "" || !Number.isInteger(n) || n < 0) {
      throw new UsageError(`--retries: "${retries}" is not a whole number of 0 or more; e.g. --retries 4`);
    }
    out.retry = { tries: n + 1 };
  }
  return out;
}
