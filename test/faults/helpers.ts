/**
 * Shared pieces of the fault tests: an injected sleeper that records the waits, a watch on
 * unhandled rejections, and a stopwatch.
 */
import type { RetryOptions } from "../../provider/http";

/** A sleeper for RetryOptions.sleep that records each wait and waits `realMs` at most. */
export function recordingSleep(realMs = 0): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    sleep: (ms) => {
      delays.push(ms);
      return new Promise((resolve) => setTimeout(resolve, Math.min(ms, realMs)));
    },
  };
}

/** Retry options for tests: a recorded sleeper, jitter fixed at half the cap. */
export function testRetry(over: RetryOptions = {}): { retry: RetryOptions; delays: number[] } {
  const { sleep, delays } = recordingSleep();
  return {
    retry: { tries: 3, baseMs: 100, maxDelayMs: 2_000, totalMs: 10_000, sleep, random: () => 0.5, ...over },
    delays,
  };
}

/** watchUnhandled records every unhandled rejection until `stop()`. */
export function watchUnhandled(): { seen: unknown[]; stop: () => void } {
  const seen: unknown[] = [];
  const onRejection = (reason: unknown) => seen.push(reason);
  process.on("unhandledRejection", onRejection);
  return { seen, stop: () => process.off("unhandledRejection", onRejection) };
}

/** timed runs `fn` and returns its result or error, with the elapsed milliseconds. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value?: T; error?: unknown; ms: number }> {
  const started = performance.now();
  try {
    const value = await fn();
    return { value, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}
