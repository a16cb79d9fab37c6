/**
 * The request cap holds across a whole `costgate check` of several projects (issue 21 item 6): one cap
 * per run, made once, travelling with the run's endpoint — never reset per project, never installed
 * twice. Counted on the emulator's side: no more requests reach it than the cap.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { runCli } from "../helpers/cli";

let emu: Emulator;
let env: Record<string, string>;
const PROJECTS = [9101, 9102, 9103, 9104];
const billingRequests = () => emu.requests.filter((r) => r.path === "/bill/graphql").length;
const check = (ids: number[], more: string[], extra: Record<string, string> = {}) =>
  runCli(["check", "--project-id", ids.join(","), "--min-balance", "1", "--concurrency", "2", ...more], {
    ...env,
    ...extra,
  });

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  const today = new Date();
  const daily = Array.from({ length: 40 }, (_, i) => ({
    day: new Date(today.getTime() - (i + 1) * 86_400_000).toISOString().slice(0, 10),
    totalAmount: 10 + (i % 3),
    totalBonuses: 0,
  }));
  for (const id of PROJECTS) emu.setProject({ id, products: { 1: { balance: 5000, bonuses: 0, daily } } });
  env = {
    COSTGATE_BILLING_URL: emu.billingUrl,
    COSTGATE_BILLING_TOKEN: emu.seed.billing.token,
    COSTGATE_RETRIES: "0",
  };
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(() => {
  emu.resetKnobs();
  emu.requests.length = 0;
});

describe("the request cap over a whole check", () => {
  it("is one cap for the run: enough for every project passes, one retry more stops the run", async () => {
    const one = await check([PROJECTS[0] as number], []);
    expect(one.code).toBe(0);
    const perProject = billingRequests();
    expect(perProject).toBeGreaterThanOrEqual(2);

    emu.requests.length = 0;
    const all = await check(PROJECTS, ["--max-requests", String(perProject * PROJECTS.length)]);
    expect(all.stderr).not.toMatch(/error/);
    expect(all.code).toBe(0);
    expect(billingRequests()).toBe(perProject * PROJECTS.length);

    // one failed attempt and its retry need one request more than the run's cap: a cap per project
    // (or one reset between projects) would let this pass
    emu.requests.length = 0;
    emu.knobs.billing.status = 503;
    emu.knobs.billing.failTimes = 1;
    const cap = perProject * PROJECTS.length;
    const cut = await check(PROJECTS, ["--max-requests", String(cap)], { COSTGATE_RETRIES: "2" });
    expect(cut.code).toBe(2);
    expect(cut.stderr).toMatch(/--max-requests: reached: \d+ requests already sent, the most allowed/);
    expect(billingRequests()).toBe(cap);
  });

  it("counts every retry of every project, from COSTGATE_MAX_REQUESTS too", async () => {
    emu.knobs.billing.status = 503;
    const r = await check(PROJECTS, [], { COSTGATE_RETRIES: "6", COSTGATE_MAX_REQUESTS: "11" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/COSTGATE_MAX_REQUESTS: reached: 11 requests already sent/);
    expect(billingRequests()).toBe(11);
  });

  it("refuses before any request a project list the cap cannot cover", async () => {
    const r = await check(PROJECTS, ["--max-requests", "7"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/4 projects need at least 8 requests, more than the run's cap of 7/);
    expect(billingRequests()).toBe(0);
  });
});
