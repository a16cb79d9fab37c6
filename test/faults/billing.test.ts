/**
 * The billing client under faults: the emulator's knobs (resets, HTML 502 pages, 500 and 503
 * storms, 429 with Retry-After, GraphQL errors) and the fault proxy (slow headers, a stalled or
 * broken body, truncated JSON). Each ends in the clean result, with no day lost or doubled, or in
 * a typed error within a bound; no rejection goes unhandled.
 */
import { describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { type BillingEndpoint, getBalance, getConsumption } from "../../provider/billing/client";
import type { ProjectConsumption } from "../../provider/billing/results";
import {
  isGraphQLError,
  isHttpError,
  isNetworkError,
  isResponseError,
  isTimeoutError,
} from "../../provider/errors";
import type { RetryOptions, Timeouts } from "../../provider/http";
import { type FaultServer, resetFaultServer, startFaultServer } from "./fault-server";
import { TIMER_SLACK_MS, testRetry, timed, useEmulator } from "./helpers";

let emu: Emulator;
let proxy: FaultServer;
let clean: ProjectConsumption;

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
// about 95 days: four windows of 31 days
const query = { projectId: 4242, from: day(-125), to: day(-31), windowDays: 31, concurrency: 2 };
const WINDOWS = 4;

function endpoint(
  over: {
    viaProxy?: boolean;
    retry?: RetryOptions | false;
    timeouts?: Timeouts;
    maxResponseBytes?: number;
  } = {},
): BillingEndpoint {
  const { viaProxy, retry, ...transport } = over;
  return {
    baseUrl: viaProxy ? proxy.url : emu.billingUrl,
    token: emu.seed.billing.token,
    transport: { retry: retry ?? testRetry().retry, ...transport },
  };
}
const billingRequests = (operation?: "CostgateBalance" | "CostgateConsumption") =>
  emu.requests.filter(
    (r) =>
      r.path === "/bill/graphql" &&
      (!operation || (r.body as { operationName?: string } | undefined)?.operationName === operation),
  ).length;

/** Same days, same amounts, same totals as the clean fetch; no day twice. */
function expectClean(u: ProjectConsumption | undefined): void {
  expect(u?.items).toEqual(clean.items);
  expect(u?.total).toEqual(clean.total);
  expect(new Set(u?.items.map((i) => i.day)).size).toBe(u?.items.length);
}

useEmulator({
  front: (e) => startFaultServer(e.url),
  resetFront: resetFaultServer,
  ready: async (e, p) => {
    emu = e;
    proxy = p;
    clean = await getConsumption(endpoint({ retry: false }), query);
    expect(clean.items.length).toBeGreaterThan(60);
  },
});

describe("faults the emulator injects", () => {
  it("retries connection resets and returns the clean days", async () => {
    Object.assign(emu.knobs.billing, { resetConnection: true, failTimes: 3 });
    const { value, ms } = await timed(() => getConsumption(endpoint(), query));
    expectClean(value);
    expect(billingRequests()).toBe(WINDOWS + 3);
    expect(ms).toBeLessThan(5_000);
  });

  it("retries HTML 502 pages from a proxy", async () => {
    Object.assign(emu.knobs.billing, { htmlError: true, status: 502, failTimes: 2 });
    expectClean(await getConsumption(endpoint(), query));
    expect(billingRequests()).toBe(WINDOWS + 2);
  });

  it("retries 503 and 504 with backoff (full jitter, injected)", async () => {
    const { retry, delays } = testRetry();
    Object.assign(emu.knobs.billing, { status: 504, failTimes: 1 });
    await getBalance(endpoint({ retry }), { projectId: 4242 });
    Object.assign(emu.knobs.billing, { status: 503, failTimes: 2 });
    await getBalance(endpoint({ retry }), { projectId: 4242 });
    // random() is 0.5: half of 100, then half of 100 and of 200
    expect(delays).toEqual([50, 50, 100]);
  });

  it("honours Retry-After on a 429", async () => {
    const { retry, delays } = testRetry();
    Object.assign(emu.knobs.billing, { status: 429, retryAfter: 1, failTimes: 1 });
    const b = await getBalance(endpoint({ retry }), { projectId: 4242 });
    expect(b.projectId).toBe(4242);
    expect(delays).toEqual([1_000]);
  });

  it("waits a Retry-After longer than maxDelayMs when it fits the retry budget", async () => {
    const { retry, delays } = testRetry({ maxDelayMs: 500 });
    Object.assign(emu.knobs.billing, { status: 429, retryAfter: 3, failTimes: 1 });
    const b = await getBalance(endpoint({ retry }), { projectId: 4242 });
    expect(b.projectId).toBe(4242);
    expect(delays).toEqual([3_000]);
  });

  it("does not wait for a Retry-After past the retry budget: a 429 HttpError at once, saying what it asked", async () => {
    Object.assign(emu.knobs.billing, { status: 429, retryAfter: 120 });
    const { error, ms } = await timed(() => getBalance(endpoint(), { projectId: 4242 }));
    expect(isHttpError(error)).toBe(true);
    expect((error as { status: number }).status).toBe(429);
    expect((error as Error).message).toMatch(/answered 429 .* try again later \(it asks to wait 120 s\)/);
    expect(billingRequests()).toBe(1);
    expect(ms).toBeLessThan(2_000);
  });

  it("fails fast on a 500 storm: not retried, an HttpError naming 500", async () => {
    emu.knobs.billing.status = 500;
    const { error, ms } = await timed(() => getConsumption(endpoint(), query));
    expect(isHttpError(error)).toBe(true);
    expect((error as Error).message).toMatch(/answered 500/);
    expect(billingRequests()).toBeLessThanOrEqual(WINDOWS);
    expect(ms).toBeLessThan(2_000);
  });

  it("gives up on a 503 storm after `tries` attempts, within the budget", async () => {
    emu.knobs.billing.status = 503;
    const retry: RetryOptions = { tries: 4, baseMs: 20, maxDelayMs: 100, totalMs: 3_000 };
    const { error, ms } = await timed(() => getBalance(endpoint({ retry }), { projectId: 4242 }));
    expect(isHttpError(error)).toBe(true);
    expect((error as { status: number }).status).toBe(503);
    expect(billingRequests("CostgateBalance")).toBe(4);
    expect(ms).toBeLessThan(3_000);
  });

  it("does not retry GraphQL errors", async () => {
    emu.knobs.billing.graphqlErrors = ["internal error"];
    const error = await getBalance(endpoint(), { projectId: 4242 }).catch((e) => e);
    expect(isGraphQLError(error)).toBe(true);
    expect(billingRequests("CostgateBalance")).toBe(1);
  });

  it("ends a refused connection in a NetworkError after every attempt", async () => {
    const { retry, delays } = testRetry();
    const closed = await startEmulator({ port: 0 });
    const url = closed.billingUrl;
    await closed.close();
    const { error, ms } = await timed(() =>
      getBalance({ baseUrl: url, token: "t", transport: { retry } }, { projectId: 4242 }),
    );
    expect(isNetworkError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /cannot reach the billing endpoint \(ECONNREFUSED\).*\(3 attempts\)/,
    );
    expect(delays).toHaveLength(2);
    expect(ms).toBeLessThan(2_000);
  });
});

describe("faults the proxy injects", () => {
  const short = { connectMs: 1_000, headersMs: 300, bodyMs: 300, totalMs: 5_000 };

  it("retries slow headers past headersMs", async () => {
    proxy.plan.push({ kind: "slowHeaders", ms: 3_000 });
    const { value, ms } = await timed(() =>
      getConsumption(endpoint({ viaProxy: true, timeouts: short }), query),
    );
    expectClean(value);
    expect(ms).toBeGreaterThanOrEqual(300);
    expect(ms).toBeLessThan(300 + TIMER_SLACK_MS + 1_000);
  });

  it("ends slow headers on every attempt in a TimeoutError within tries × headersMs", async () => {
    for (let i = 0; i < 3; i++) proxy.plan.push({ kind: "slowHeaders", ms: 3_000 });
    const { error, ms } = await timed(() =>
      getBalance(endpoint({ viaProxy: true, timeouts: short }), { projectId: 4242 }),
    );
    expect(isTimeoutError(error)).toBe(true);
    expect((error as Error).message).toMatch(/timed out waiting for headers \(300 ms\).*\(3 attempts\)/);
    expect(ms).toBeLessThan(3 * (300 + TIMER_SLACK_MS) + 1_000);
  });

  it("retries a body that stalls past bodyMs", async () => {
    proxy.plan.push({ kind: "stallBody", ms: 3_000 });
    const { value, ms } = await timed(() =>
      getConsumption(endpoint({ viaProxy: true, timeouts: short }), query),
    );
    expectClean(value);
    expect(ms).toBeLessThan(300 + TIMER_SLACK_MS + 1_000);
  });

  it("cuts an attempt at its whole-request limit even while bytes trickle in", async () => {
    proxy.plan.push({ kind: "stallBody", ms: 1_500 });
    const timeouts = { headersMs: 5_000, bodyMs: 5_000, totalMs: 400 };
    const { error, ms } = await timed(() =>
      getBalance(endpoint({ viaProxy: true, timeouts, retry: false }), { projectId: 4242 }),
    );
    expect(isTimeoutError(error)).toBe(true);
    expect((error as Error).message).toMatch(/timed out before the whole answer arrived \(400 ms\)/);
    expect(ms).toBeLessThan(1_000);
  });

  it("retries a connection reset in the middle of the body", async () => {
    proxy.plan.push({ kind: "resetMidBody" }, { kind: "forward" }, { kind: "resetMidBody" });
    expectClean(await getConsumption(endpoint({ viaProxy: true }), query));
    expect(proxy.requests).toBe(WINDOWS + 2);
  });

  it("names truncated JSON as a ResponseError, not a parse error", async () => {
    proxy.plan.push({ kind: "truncatedJson" });
    const { error, ms } = await timed(() => getBalance(endpoint({ viaProxy: true }), { projectId: 4242 }));
    expect(isResponseError(error)).toBe(true);
    expect((error as Error).message).toMatch(/answered 200 .* a non-JSON body .* not GraphQL JSON/);
    expect((error as Error).message).not.toMatch(/Unexpected|JSON\.parse|position/);
    expect(ms).toBeLessThan(1_000);
  });

  it("ends a body that never ends at maxResponseBytes: a ResponseError at once, not retried", async () => {
    proxy.plan.push({ kind: "endlessBody" }, { kind: "endlessBody" });
    const before = process.memoryUsage().rss;
    const { error, ms } = await timed(() =>
      getBalance(endpoint({ viaProxy: true, maxResponseBytes: 1024 * 1024 }), { projectId: 4242 }),
    );
    expect(isResponseError(error)).toBe(true);
    expect((error as Error).message).toMatch(/response to POST .* is larger than 1 MiB \(maxResponseBytes\)/);
    expect(proxy.requests).toBe(1);
    expect(ms).toBeLessThan(2_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it("refuses an announced Content-Length over maxResponseBytes before reading the body", async () => {
    const body = JSON.stringify({ data: { pad: "x".repeat(4096) } });
    proxy.plan.push({ kind: "answer", status: 200, body });
    const error = await getBalance(endpoint({ viaProxy: true, maxResponseBytes: 1000 }), {
      projectId: 4242,
    }).catch((e) => e);
    expect(isResponseError(error)).toBe(true);
    expect((error as Error).message).toMatch(/larger than 1000 bytes/);
  });

  it("names an answer that is not HTTP, with the scheme and port to check, without retrying it", async () => {
    proxy.plan.push({ kind: "notHttp", data: "SSH-2.0-OpenSSH_9.2\r\n" });
    const { error, ms } = await timed(() => getBalance(endpoint({ viaProxy: true }), { projectId: 4242 }));
    expect(isNetworkError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /billing endpoint did not answer in HTTP \(.+\): POST .*check the scheme \(http:\/\/ or https:\/\/\) and the port/,
    );
    expect(proxy.requests).toBe(1);
    expect(ms).toBeLessThan(1_000);
  });

  it("does not follow a redirect, and says where it points (without its query)", async () => {
    proxy.plan.push({
      kind: "answer",
      status: 302,
      body: "",
      headers: { location: "https://console.example/bill/graphql?session=s3cr3t" },
    });
    const error = await getBalance(endpoint({ viaProxy: true }), { projectId: 4242 }).catch((e) => e);
    expect(isHttpError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /answered 302 .* does not follow redirects; use the address it points to \(Location: https:\/\/console\.example\/bill\/graphql\)/,
    );
    expect((error as Error).message).not.toContain("s3cr3t");
    expect(proxy.requests).toBe(1);
  });

  it("withholds a gateway's JSON error message on a 401 that echoes the access token, and says so", async () => {
    const token = emu.seed.billing.token;
    proxy.plan.push({
      kind: "answer",
      status: 401,
      body: JSON.stringify({ error: { code: 401, message: `token ${token} is not valid\nmore` } }),
    });
    const error = await getBalance(endpoint({ viaProxy: true }), { projectId: 4242 }).catch((e) => e);
    expect(isHttpError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /answered 401 .*: \(\d+ characters not shown: they echo a credential\) — the console access token was refused/,
    );
    expect((error as Error).message).not.toContain(token);
    expect((error as { apiMessage?: string }).apiMessage).toMatch(
      /characters not shown: they echo a credential/,
    );
  });

  it("loses and doubles no day when faults hit some windows of a concurrent fetch", async () => {
    proxy.plan.push(
      { kind: "resetMidBody" },
      { kind: "forward" },
      { kind: "reset" },
      { kind: "slowHeaders", ms: 1_000 },
      {
        kind: "answer",
        status: 502,
        body: "<html>bad gateway</html>",
        headers: { "content-type": "text/html" },
      },
      { kind: "stallBody", ms: 1_000 },
    );
    const { value, ms } = await timed(() =>
      getConsumption(endpoint({ viaProxy: true, timeouts: short, retry: testRetry({ tries: 6 }).retry }), {
        ...query,
        concurrency: 3,
      }),
    );
    expectClean(value);
    expect(ms).toBeLessThan(5_000);
  });
});
