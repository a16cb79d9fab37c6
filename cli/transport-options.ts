/**
 * The flags of every command that talks to an endpoint: --timeout and --retries.
 */
import type { Command } from "commander";
import { MAX_TIMEOUT_MS, type RetryOptions, type Timeouts } from "../provider/http";
import { type Flags, seconds, text, wholeNumber } from "./options/parse";

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
export function transportArgsFrom(o: Flags): {
  timeouts?: Timeouts;
  retry?: RetryOptions;
} {
  const out: { timeouts?: Timeouts; retry?: RetryOptions } = {};
  const timeout = text(o, "timeout");
  if (timeout !== undefined) {
    const ms = seconds(timeout, "--timeout", MAX_TIMEOUT_MS);
    out.timeouts = { totalMs: ms, headersMs: ms, bodyMs: ms };
  }
  const retries = text(o, "retries");
  if (retries !== undefined) {
    out.retry = { tries: wholeNumber(retries, "--retries", 0, "--retries 4") + 1 };
  }
  return out;
}
