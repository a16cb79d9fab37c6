/**
 * Token operations under faults. Issue (POST) and revoke (DELETE) are retried only when no
 * response arrived; validate (GET) and check (HEAD) also on 429/502/503/504 and broken bodies.
 * And the debug log of a retrying `costgate` process shows each retry and no credential.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { isHttpError, isNetworkError, isTimeoutError } from "../../provider/errors";
import type { Timeouts } from "../../provider/http";
import type { AuthMethod } from "../../provider/identity/auth";
import {
  checkToken,
  type IdentityEndpoint,
  issueToken,
  revokeToken,
  validateToken,
} from "../../provider/identity/tokens";
import { type FaultServer, resetFaultServer, startFaultServer } from "./fault-server";
import { demoCredential, TIMER_SLACK_MS, testRetry, timed, useEmulator } from "./helpers";

let emu: Emulator;
let proxy: FaultServer;

const posts = () => emu.requests.filter((r) => r.method === "POST" && r.path === "/v3/auth/tokens").length;
const count = (method: string) => emu.requests.filter((r) => r.method === method).length;
function ep(over: { viaProxy?: boolean; timeouts?: Timeouts } = {}): IdentityEndpoint {
  return {
    authUrl: `${over.viaProxy ? proxy.url : emu.url}/v3`,
    transport: { retry: testRetry().retry, timeouts: over.timeouts },
  };
}
const cred = (): AuthMethod => demoCredential(emu);

useEmulator({
  front: (e) => startFaultServer(e.url),
  resetFront: resetFaultServer,
  ready: (e, p) => {
    emu = e;
    proxy = p;
  },
});

describe("issueToken", () => {
  it("retries a connection reset before any response", async () => {
    Object.assign(emu.knobs.identity, { resetConnection: true, failTimes: 1 });
    const token = await issueToken(ep(), cred());
    expect(token.id).not.toBe("");
    expect(posts()).toBe(2);
  });

  it.each([
    ["an HTML 502", { htmlError: true, status: 502 }, 502],
    ["a 503 with Retry-After", { status: 503, retryAfter: 1 }, 503],
    ["a 429", { status: 429 }, 429],
  ])("never retries after a response: %s is an HttpError after one POST", async (_name, knobs, status) => {
    Object.assign(emu.knobs.identity, knobs, { failTimes: 1 });
    const { error, ms } = await timed(() => issueToken(ep(), cred()));
    expect(isHttpError(error)).toBe(true);
    expect((error as { status: number }).status).toBe(status);
    expect(posts()).toBe(1);
    expect(ms).toBeLessThan(1_000);
  });

  it("does not retry slow headers past the timeout: the server may be issuing", async () => {
    proxy.plan.push({ kind: "slowHeaders", ms: 2_000 });
    const { error, ms } = await timed(() =>
      issueToken(ep({ viaProxy: true, timeouts: { headersMs: 300 } }), cred()),
    );
    expect(isTimeoutError(error)).toBe(true);
    expect((error as Error).message).toMatch(/identity request timed out waiting for headers \(300 ms\)/);
    expect(proxy.requests).toBe(1);
    expect(ms).toBeLessThan(300 + TIMER_SLACK_MS + 500);
  });

  it("does not retry a body cut short: a response had arrived", async () => {
    proxy.plan.push({ kind: "resetMidBody" });
    const { error } = await timed(() => issueToken(ep({ viaProxy: true }), cred()));
    expect(isNetworkError(error)).toBe(true);
    expect((error as Error).message).toMatch(/the answer broke off/);
    expect(proxy.requests).toBe(1);
  });

  it("retries a refused connection, then names it", async () => {
    const closed = await startEmulator({ port: 0 });
    const authUrl = closed.identityUrl;
    await closed.close();
    const { retry, delays } = testRetry();
    const { error, ms } = await timed(() => issueToken({ authUrl, transport: { retry } }, cred()));
    expect(isNetworkError(error)).toBe(true);
    expect((error as Error).message).toMatch(/cannot reach the identity endpoint \(ECONNREFUSED\)/);
    expect(delays).toHaveLength(2);
    expect(ms).toBeLessThan(2_000);
  });
});

describe("validate, check and revoke", () => {
  let token: string;
  beforeEach(async () => {
    token = (await issueToken(ep(), cred())).id;
    emu.requests.length = 0;
  });

  it("validateToken retries resets, 503s and a broken body", async () => {
    Object.assign(emu.knobs.identity, { resetConnection: true, failTimes: 1 });
    expect(await validateToken(ep(), token)).not.toBeNull();
    Object.assign(emu.knobs.identity, { status: 503, failTimes: 2 });
    expect(await validateToken(ep(), token)).not.toBeNull();
    proxy.plan.push({ kind: "resetMidBody" });
    expect(await validateToken(ep({ viaProxy: true }), token)).not.toBeNull();
    expect(count("GET")).toBe(2 + 3 + 2);
  });

  it("checkToken (HEAD) retries an HTML 502", async () => {
    Object.assign(emu.knobs.identity, { htmlError: true, status: 502, failTimes: 1 });
    expect(await checkToken(ep(), token)).toBe(true);
    expect(count("HEAD")).toBe(2);
  });

  it("revokeToken retries a reset before any response, not a 503", async () => {
    Object.assign(emu.knobs.identity, { status: 503, failTimes: 1 });
    const error = await revokeToken(ep(), token).catch((e) => e);
    expect(isHttpError(error)).toBe(true);
    expect(count("DELETE")).toBe(1);
    Object.assign(emu.knobs.identity, { resetConnection: true, failTimes: 1 });
    expect(await revokeToken(ep(), token)).toBe(true);
    expect(count("DELETE")).toBe(3);
  });
});

describe("COSTGATE_DEBUG while retrying", () => {
  const BIN = resolve(__dirname, "../../bin/costgate");
  function run(args: string[], env: Record<string, string>) {
    return new Promise<{ code: number; stdout: string; stderr: string }>((ok) => {
      execFile(
        BIN,
        args,
        {
          env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent", COSTGATE_DEBUG: "1", ...env },
          timeout: 20_000,
        },
        (err, stdout, stderr) => ok({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it("`costgate token` logs each retry (attempt, reason, delay) and no credential", async () => {
    Object.assign(emu.knobs.identity, { resetConnection: true, failTimes: 2 });
    const c = emu.seed.applicationCredentials.demo;
    const r = await run(["token"], {
      OS_AUTH_URL: emu.identityUrl,
      OS_APPLICATION_CREDENTIAL_ID: c.id,
      OS_APPLICATION_CREDENTIAL_SECRET: c.secret,
    });
    expect(r.code).toBe(0);
    const token = r.stdout.trim();
    expect(token.length).toBeGreaterThan(10);
    expect(r.stderr).toMatch(
      /retry 2\/3 of POST http:\/\/127\.0\.0\.1:\d+\/v3\/auth\/tokens in \d+ ms \(after ECONNRESET, no response\)/,
    );
    expect(r.stderr).toMatch(/retry 3\/3 of POST/);
    expect(r.stderr).toMatch(/<- 201 POST/);
    expect(r.stderr).not.toContain(c.secret);
    expect(r.stderr).not.toContain(token);
  });

  it("`costgate balance` logs a 503 retry and never the X-User-Token", async () => {
    Object.assign(emu.knobs.billing, { status: 503, failTimes: 1 });
    const r = await run(["balance", "--project-id", "4242", "--json"], {
      COSTGATE_BILLING_URL: emu.billingUrl,
      COSTGATE_BILLING_TOKEN: emu.seed.billing.token,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/retry 2\/3 of POST .*\/bill\/graphql in \d+ ms \(after HTTP 503\)/);
    expect(r.stderr).toMatch(/x-user-token: <redacted>/);
    expect(r.stderr).not.toContain(emu.seed.billing.token);
  });
});
