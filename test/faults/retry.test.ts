/**
 * The retry policy of provider/http.ts: backoff with full jitter, Retry-After, which outcomes are
 * retried for idempotent and other requests, the time budget, and the environment overrides.
 */
import { describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { isConfigError, isHttpError } from "../../provider/errors";
import { DEFAULT_RETRY, DEFAULT_TIMEOUTS, send } from "../../provider/http";
import { resolveTransport } from "../../provider/http/options";
import { backoffMs, parseRetryAfter, retryReason } from "../../provider/http/retry";
import { useEmulator } from "./helpers";

describe("backoffMs", () => {
  it("doubles the cap from baseMs up to maxDelayMs and scales it by random()", () => {
    const r = { baseMs: 100, maxDelayMs: 1_000, random: () => 0.999999 };
    expect([1, 2, 3, 4, 5, 9].map((n) => backoffMs(n, r))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffMs(3, { ...r, random: () => 0 })).toBe(0);
    expect(backoffMs(2, { ...r, random: () => 0.5 })).toBe(100);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-22T10:00:00Z");
  it.each([
    ["3", 3_000],
    ["0", 0],
    [" 1.5 ", 1_500],
    ["Sun, 22 Nov 2026 10:00:05 GMT", 5_000],
    ["Sun, 22 Nov 2026 09:59:00 GMT", 0],
    ["soon", undefined],
    ["-1", undefined],
    [undefined, undefined],
  ])("%j is %j ms", (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });
});

describe("retryReason", () => {
  const noAnswer = (code: string) => ({ failure: { responded: false, code } });
  it.each([
    // outcome, idempotent (GET/HEAD, billing queries), not idempotent (issue, revoke)
    ["429", { status: 429 }, "HTTP 429", undefined],
    ["502", { status: 502 }, "HTTP 502", undefined],
    ["503", { status: 503 }, "HTTP 503", undefined],
    ["504", { status: 504 }, "HTTP 504", undefined],
    ["500", { status: 500 }, undefined, undefined],
    ["401", { status: 401 }, undefined, undefined],
    ["refused", noAnswer("ECONNREFUSED"), "ECONNREFUSED", "ECONNREFUSED, no response"],
    ["reset before any answer", noAnswer("ECONNRESET"), "ECONNRESET", "ECONNRESET, no response"],
    ["unknown host", noAnswer("ENOTFOUND"), undefined, undefined],
    ["bad certificate", noAnswer("DEPTH_ZERO_SELF_SIGNED_CERT"), undefined, undefined],
    [
      "connect timeout",
      { failure: { responded: false, timeout: "connect" } },
      "connect timeout",
      "connect timeout",
    ],
    ["headers timeout", { failure: { responded: false, timeout: "headers" } }, "headers timeout", undefined],
    ["body broke off", { failure: { responded: true, code: "ECONNRESET" } }, "ECONNRESET", undefined],
    ["body timeout", { failure: { responded: true, timeout: "body" } }, "body timeout", undefined],
  ] as const)("%s: idempotent %j, not idempotent %j", (_name, outcome, idem, nonIdem) => {
    expect(retryReason(outcome, true)).toBe(idem);
    expect(retryReason(outcome, false)).toBe(nonIdem);
  });
});

describe("resolveTransport", () => {
  it("has sane defaults, far below undici's 300 s", () => {
    const { timeouts, retry } = resolveTransport(undefined, {});
    expect(timeouts).toEqual(DEFAULT_TIMEOUTS);
    expect(Math.max(...Object.values(timeouts))).toBeLessThanOrEqual(60_000);
    expect(retry).toMatchObject(DEFAULT_RETRY);
  });

  it("takes COSTGATE_RETRIES and COSTGATE_TIMEOUT_MS over the defaults, and code over both", () => {
    const env = { COSTGATE_RETRIES: "0", COSTGATE_TIMEOUT_MS: "1500" };
    const fromEnv = resolveTransport(undefined, env);
    expect(fromEnv.retry.tries).toBe(1);
    expect(fromEnv.timeouts).toEqual({ connectMs: 1_500, headersMs: 1_500, bodyMs: 1_500, totalMs: 1_500 });
    const given = resolveTransport({ timeouts: { headersMs: 700 }, retry: { tries: 5 } }, env);
    expect(given.retry.tries).toBe(5);
    expect(given.timeouts.headersMs).toBe(700);
    expect(given.timeouts.bodyMs).toBe(1_500);
    expect(resolveTransport({ retry: false }, { COSTGATE_RETRIES: "4" }).retry.tries).toBe(1);
    expect(resolveTransport(undefined, { COSTGATE_RETRIES: "4" }).retry.tries).toBe(5);
  });

  it("follows the environment from one call to the next, TLS-only options included", () => {
    const env: Record<string, string> = {};
    expect(resolveTransport(undefined, env).retry.tries).toBe(3);
    expect(resolveTransport({ caCert: "/ca.pem", insecure: true }, env).timeouts).toEqual(DEFAULT_TIMEOUTS);
    env["COSTGATE_RETRIES"] = "1";
    env["COSTGATE_TIMEOUT_MS"] = "900";
    expect(resolveTransport(undefined, env).retry.tries).toBe(2);
    expect(resolveTransport({ insecure: true }, env).timeouts.headersMs).toBe(900);
    env["COSTGATE_RETRIES"] = "many";
    expect(() => resolveTransport(undefined, env)).toThrow(/COSTGATE_RETRIES/);
    delete env["COSTGATE_RETRIES"];
    delete env["COSTGATE_TIMEOUT_MS"];
    const kept = resolveTransport(undefined, env);
    expect(kept.retry.tries).toBe(3);
    expect(Object.isFrozen(kept.timeouts) && Object.isFrozen(kept.retry)).toBe(true);
  });

  it.each([
    [{ COSTGATE_RETRIES: "many" }, undefined, "COSTGATE_RETRIES"],
    [{ COSTGATE_TIMEOUT_MS: "0" }, undefined, "COSTGATE_TIMEOUT_MS"],
    [{}, { retry: { tries: 0 } }, "retry.tries"],
    [{}, { retry: { baseMs: -1 } }, "retry.baseMs"],
    [{}, { timeouts: { headersMs: 0 } }, "timeouts.headersMs"],
  ])("refuses %j %j naming %s", (env, transport, field) => {
    let err: unknown;
    try {
      resolveTransport(transport, env);
    } catch (e) {
      err = e;
    }
    expect(isConfigError(err)).toBe(true);
    expect((err as { field: string }).field).toBe(field);
  });
});

describe("send against the emulator", () => {
  let emu: Emulator;
  const url = () => `${emu.url}/v3`;
  useEmulator({
    ready: (e) => {
      emu = e;
    },
  });

  it("stops when the next wait would pass the time budget (injected clock)", async () => {
    emu.knobs.identity.status = 503;
    let clock = 0;
    const delays: number[] = [];
    const retry = {
      tries: 10,
      baseMs: 400,
      maxDelayMs: 10_000,
      totalMs: 2_000,
      random: () => 1 - Number.EPSILON,
      now: () => clock,
      sleep: async (ms: number) => {
        delays.push(ms);
        clock += ms;
      },
    };
    const res = await send({ service: "identity", method: "GET", url: url(), transport: { retry } });
    // waits 399 + 799 = 1198; the next (1599) would end past 2000
    expect(delays).toEqual([399, 799]);
    expect(res.status).toBe(503);
    expect(res.attempts).toBe(3);
    expect(emu.requests).toHaveLength(3);
  });

  it("waits what Retry-After says on a 503 and succeeds", async () => {
    Object.assign(emu.knobs.identity, { status: 503, retryAfter: 2, failTimes: 1 });
    const delays: number[] = [];
    const retry = { sleep: async (ms: number) => void delays.push(ms) };
    const res = await send({ service: "identity", method: "GET", url: url(), transport: { retry } });
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(2);
    expect(delays).toEqual([2_000]);
  });

  it("does not retry with retry: false or COSTGATE_RETRIES=0", async () => {
    emu.knobs.identity.status = 503;
    const off = await send({ service: "identity", method: "GET", url: url(), transport: { retry: false } });
    expect(off.attempts).toBe(1);
    process.env["COSTGATE_RETRIES"] = "0";
    try {
      const env = await send({ service: "identity", method: "GET", url: url() });
      expect(env.attempts).toBe(1);
    } finally {
      delete process.env["COSTGATE_RETRIES"];
    }
    expect(emu.requests).toHaveLength(2);
  });

  it("returns the last response, never throws, when statuses stay bad", async () => {
    emu.knobs.identity.htmlError = true;
    const retry = { sleep: async () => undefined };
    const res = await send({ service: "identity", method: "HEAD", url: url(), transport: { retry } });
    expect(isHttpError(res)).toBe(false);
    expect(res).toMatchObject({ status: 502, attempts: 3 });
  });
});
