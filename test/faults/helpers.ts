/**
 * Shared pieces of the fault and load tests: an emulator suite's hooks, an injected sleeper that
 * records the waits, a watch on unhandled rejections, and a stopwatch.
 */
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import type { RetryOptions } from "../../provider/http";
import type { AuthMethod } from "../../provider/identity/auth";

/** demoCredential is the emulator's seeded application credential as an auth method. */
export function demoCredential(emu: Emulator): AuthMethod {
  const c = emu.seed.applicationCredentials.demo;
  return {
    type: "application_credential",
    applicationCredentialId: c.id,
    applicationCredentialSecret: c.secret,
  };
}

/**
 * useEmulator registers the hooks the fault and load suites share: before the tests, a watch on
 * unhandled rejections, an emulator and (started on its URL) an optional front such as a proxy,
 * handed to `ready`; before each test, the emulator's knobs and recorded requests reset (and the
 * front, with `resetFront`); after the tests, both closed and no rejection left unhandled.
 */
export function useEmulator<F extends { close(): Promise<void> }>(opts: {
  front?: (emu: Emulator) => Promise<F>;
  resetFront?: (front: F) => void;
  ready: (emu: Emulator, front: F) => void | Promise<void>;
}): void {
  let emu: Emulator | undefined;
  let front: F | undefined;
  let watch: ReturnType<typeof watchUnhandled> | undefined;
  beforeAll(async () => {
    watch = watchUnhandled();
    emu = await startEmulator({ port: 0 });
    front = await opts.front?.(emu);
    await opts.ready(emu, front as F);
  });
  afterAll(async () => {
    await front?.close();
    await emu?.close();
    watch?.stop();
    expect(watch?.seen).toEqual([]);
  });
  beforeEach(() => {
    emu?.resetKnobs();
    if (emu) emu.requests.length = 0;
    if (front) opts.resetFront?.(front);
  });
}

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

/**
 * How late undici's connect, headers and body timeouts may fire: it checks them on a shared clock that
 * ticks about twice a second (lib/util/timers.js, RESOLUTION_MS 1000), so a 300 ms timeout ends an
 * attempt between 300 and ~1 300 ms. The whole-attempt limit (`totalMs`) is costgate's own and exact.
 */
export const TIMER_SLACK_MS = 1_000;
