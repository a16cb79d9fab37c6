/**
 * The billing client over 500 projects against the emulator, through a counting TCP proxy:
 * every result arrives, once, in order; at most `concurrency` requests are in flight; a few
 * keep-alive sockets carry them all; memory stays roughly flat; faults under load are absorbed
 * by retries. Bounded in count and time, loopback only.
 */
import { describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { type BillingEndpoint, getBalance, getConsumption } from "../../provider/billing/client";
import { fetchMany } from "../../provider/billing/many";
import { isConfigError, isResponseError } from "../../provider/errors";
import type { RetryOptions } from "../../provider/http";
import { useEmulator } from "../faults/helpers";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy";

const PROJECTS = 500;
let emu: Emulator;
let proxy: TcpProxy;
let ids: number[];

const ep = (retry?: RetryOptions): BillingEndpoint => ({
  baseUrl: proxy.url,
  token: emu.seed.billing.token,
  transport: { retry: retry ?? { sleep: async () => undefined } },
});
const billingRequests = () => emu.requests.filter((r) => r.path === "/bill/graphql").length;

useEmulator({
  front: (e) => startTcpProxy(e.url),
  ready: (e, p) => {
    emu = e;
    proxy = p;
    ids = emu.addSyntheticProjects(PROJECTS);
  },
});

describe("fetchMany over 500 projects", () => {
  it("returns every balance once and in order, 8 at a time over reused sockets, with flat memory", async () => {
    await fetchMany(ep(), ids.slice(0, 50), { concurrency: 8 }); // warm-up: pools, JIT
    emu.requests.length = 0;
    const portsBefore = proxy.clientPorts.length;
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    let inFlight = 0;
    let maxInFlight = 0;
    const progress: number[] = [];
    for (let round = 0; round < 2; round++) {
      progress.length = 0;
      const outcomes = await fetchMany(ep(), ids, {
        concurrency: 8,
        onProgress: (done, total) => {
          expect(total).toBe(PROJECTS);
          progress.push(done);
        },
        fetch: async (e, projectId) => {
          maxInFlight = Math.max(maxInFlight, ++inFlight);
          try {
            return await getBalance(e, { projectId });
          } finally {
            inFlight--;
          }
        },
      });
      expect(outcomes.map((o) => o.projectId)).toEqual(ids);
      expect(outcomes.every((o) => o.ok && Number.isFinite(o.value.balance))).toBe(true);
      expect(progress).toEqual(Array.from({ length: PROJECTS }, (_, i) => i + 1));
      emu.requests.length = 0;
    }
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    const newConnections = proxy.clientPorts.length - portsBefore;
    expect(maxInFlight).toBe(8);
    // 1050 requests over keep-alive: the warm-up's 8 sockets carry them (a few more if one idled out)
    expect(newConnections).toBeLessThanOrEqual(8);
    expect(new Set(proxy.clientPorts).size).toBeLessThanOrEqual(16);
    expect(heapGrowth).toBeLessThan(40 * 1024 * 1024);
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it("fetches two windows of consumption per project, identical to one project at a time", async () => {
    const q = { from: "2026-01-01", to: "2026-03-03", windowDays: 31, concurrency: 2 };
    const now = () => new Date("2026-06-01T00:00:00Z");
    const outcomes = await fetchMany(ep(), ids, {
      concurrency: 16,
      fetch: (e, projectId) => getConsumption(e, { projectId, ...q }, now),
    });
    expect(outcomes).toHaveLength(PROJECTS);
    expect(billingRequests()).toBe(PROJECTS * 2);
    for (const i of [0, 1, 137, 250, 499]) {
      const o = outcomes[i]!;
      expect(o.ok).toBe(true);
      const alone = await getConsumption(
        { baseUrl: emu.billingUrl, token: emu.seed.billing.token },
        { projectId: ids[i]!, ...q },
        now,
      );
      expect(o.ok && o.value).toEqual(alone);
    }
  });

  it("absorbs 503s and resets under load with retries: all 500 arrive, each fault retried once", async () => {
    Object.assign(emu.knobs.billing, { status: 503, failTimes: 16 });
    const retry = { tries: 6, baseMs: 10, maxDelayMs: 50, random: () => 0.5 };
    const first = await fetchMany(ep(retry), ids, { concurrency: 8 });
    expect(first.filter((o) => o.ok)).toHaveLength(PROJECTS);
    expect(billingRequests()).toBe(PROJECTS + 16);
    emu.requests.length = 0;
    Object.assign(emu.knobs.billing, { resetConnection: true, failTimes: 8 });
    const second = await fetchMany(ep(retry), ids, { concurrency: 8 });
    expect(second.filter((o) => o.ok)).toHaveLength(PROJECTS);
    expect(billingRequests()).toBe(PROJECTS + 8);
  });

  it("reports a project without data as its own error and goes on with the others", async () => {
    const mixed = [ids[0]!, 990_000_001, ids[1]!, 990_000_002];
    const outcomes = await fetchMany(ep(), mixed, { concurrency: 2 });
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true, false]);
    const failed = outcomes[1]!;
    expect(!failed.ok && isResponseError(failed.error)).toBe(true);
    expect(!failed.ok && failed.error.message).toMatch(/^no data — check productId/);
  });

  it("refuses a bad id or concurrency before any request", async () => {
    const e1 = await fetchMany(ep(), [ids[0]!, "12a"]).catch((e) => e);
    expect(isConfigError(e1) && e1.field).toBe("projectIds[1]");
    const e2 = await fetchMany(ep(), ids, { concurrency: 0 }).catch((e) => e);
    expect(isConfigError(e2) && e2.field).toBe("concurrency");
    expect(billingRequests()).toBe(0);
  });
});
