/**
 * `costgate watch` as a process against the emulator and a webhook receiver: the exposition passes
 * `promtool check metrics` and carries the emulator's figures; a rule that fails then recovers gives
 * exactly one firing and one resolved notification across refreshes and a restart; a failing endpoint
 * keeps /metrics serving the last figures and their age; a failing webhook is retried until delivered;
 * `--once` delivers, saves and exits.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { runCli } from "../helpers/cli";
import {
  metricValue,
  type Receiver,
  series,
  startReceiver,
  startWatch,
  type WatchProcess,
  waitFor,
} from "./harness";

let emu: Emulator;
let hook: Receiver;
let env: Record<string, string>;
let dir: string;

const HAS_PROMTOOL = spawnSync("promtool", ["--version"]).status === 0;
if (!HAS_PROMTOOL && process.env["CI"] === "true")
  throw new Error("promtool is missing: install Debian's prometheus package (.ci/run does)");

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
  dir = mkdtempSync(join(tmpdir(), "costgate-watch-"));
});
afterAll(async () => {
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  emu.resetKnobs();
  await hook?.close();
  hook = await startReceiver();
});

const scrape = async (url: string) => (await fetch(`${url}/metrics`)).text();
const healthy = (id: number) =>
  emu.setProject({ id, products: { 1: { balance: 10_000, bonuses: 25, daily: series(100) } } });
const broke = (id: number) =>
  emu.setProject({ id, products: { 1: { balance: 500, bonuses: 25, daily: series(100) } } });
const count = (status: string, rule = "min-runway-days") =>
  hook.bodies.filter((b) => b["status"] === status && b["rule"] === rule).length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** watchArgs watches `project` every second with --min-runway-days 14, then `more`. */
const watchArgs = (project: string, ...more: string[]) => [
  "--project-id",
  project,
  "--interval",
  "1s",
  "--min-runway-days",
  "14",
  ...more,
];
/** watching runs `body` against `costgate watch args`, and kills the process whatever happens. */
async function watching(args: string[], body: (w: WatchProcess) => Promise<void>) {
  const w = await startWatch(args, env);
  try {
    await body(w);
  } finally {
    w.child.kill("SIGKILL");
  }
}
/** firstRead waits until /metrics has `project`'s balance and gives the exposition. */
const firstRead = (w: WatchProcess, project: string) =>
  waitFor("the first read", async () => {
    const t = await scrape(w.url);
    return metricValue(t, "costgate_balance", { project }) !== undefined && t;
  });
/** ruleOk is `project`'s costgate_rule_ok for min-runway-days as `url` serves it. */
const ruleOk = async (url: string, project: string) =>
  metricValue(await scrape(url), "costgate_rule_ok", { project, rule: "min-runway-days" });

describe("costgate watch", () => {
  it("serves the emulator's figures in a format promtool accepts, and /healthz, /readyz", async () => {
    healthy(9001);
    await watching(watchArgs("9001", "--monthly-budget", "5000"), async (w) => {
      const text = await firstRead(w, "9001");
      const p = { project: "9001", product: "openstack" };
      expect(metricValue(text, "costgate_balance", p)).toBe(10_000);
      expect(metricValue(text, "costgate_bonuses", p)).toBe(25);
      expect(metricValue(text, "costgate_min_runway_days", p)).toBe(14);
      expect(metricValue(text, "costgate_monthly_budget", p)).toBe(5000);
      // not configured: absent
      expect(metricValue(text, "costgate_min_balance", p)).toBeUndefined();
      expect(metricValue(text, "costgate_rule_ok", { ...p, rule: "min-balance" })).toBeUndefined();
      expect(metricValue(text, "costgate_rule_ok", { ...p, rule: "min-runway-days" })).toBe(1);
      // 100 a day: the month so far is 100 a day up to today, the runway about 100 days
      const now = new Date();
      const day = now.getUTCDate();
      expect(metricValue(text, "costgate_month_to_date", p)).toBeCloseTo(100 * day, 0);
      // the month's end adds the days after today; on its last day there are none (today's 100 is in already),
      // and the rest of today adds less than a day
      const lastDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
      for (const q of ["0.5", "0.8", "0.9"]) {
        expect(metricValue(text, "costgate_runway_days", { ...p, quantile: q })).toBeGreaterThan(80);
        const monthEnd = metricValue(text, "costgate_forecast_month_end", { ...p, quantile: q });
        if (day < lastDay) expect(monthEnd).toBeGreaterThan(100 * day);
        else {
          expect(monthEnd).toBeGreaterThanOrEqual(100 * day - 0.01);
          expect(monthEnd).toBeLessThan(100 * (day + 1));
        }
      }
      expect(metricValue(text, "costgate_read_errors_total", p)).toBe(0);
      expect(text).toMatch(/^process_cpu_seconds_total /m);
      expect(
        Math.abs(Date.now() / 1000 - (metricValue(text, "costgate_last_success_timestamp_seconds", p) ?? 0)),
      ).toBeLessThan(10);
      expect((await fetch(`${w.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${w.url}/readyz`)).status).toBe(200);
      expect((await fetch(`${w.url}/nope`)).status).toBe(404);
      if (HAS_PROMTOOL) {
        const r = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
        // the only lint left: the issue's metric names count in days, not Prometheus' base unit seconds
        const problems = `${r.stdout}${r.stderr}`.split("\n").filter((l) => l.trim() !== "");
        expect(problems.sort()).toEqual([
          'costgate_min_runway_days use base unit "seconds" instead of "days"',
          'costgate_runway_days use base unit "seconds" instead of "days"',
        ]);
      }
      expect(await w.stop()).toBe(0);
    });
  });

  it("--runway-unit seconds exposes the runway in Prometheus' base unit, and promtool's lint is clean", async () => {
    healthy(9011);
    await watching(watchArgs("9011", "--runway-unit", "seconds"), async (w) => {
      const text = await firstRead(w, "9011");
      const p = { project: "9011", product: "openstack" };
      expect(metricValue(text, "costgate_min_runway_seconds", p)).toBe(14 * 86_400);
      expect(metricValue(text, "costgate_runway_seconds", { ...p, quantile: "0.5" })).toBeGreaterThan(
        80 * 86_400,
      );
      expect(text).not.toMatch(/_days/);
      if (HAS_PROMTOOL) {
        const r = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
        expect(`${r.stdout}${r.stderr}`.trim()).toBe("");
        expect(r.status).toBe(0);
      }
      expect(await w.stop()).toBe(0);
    });
  });

  it("fires exactly once and resolves exactly once, across refreshes and a restart", async () => {
    healthy(9002);
    const state = join(dir, "fire-once.json");
    const args = watchArgs("9002", "--webhook", hook.url, "--state", state);
    const first = await startWatch(args, env);
    await waitFor("a read", async () => (await ruleOk(first.url, "9002")) === 1);
    broke(9002);
    await waitFor("the firing notification", () => count("firing") === 1);
    await sleep(3000); // three refreshes more
    expect(await first.stop()).toBe(0);
    const second = await startWatch(args, env);
    await waitFor("a read after the restart", async () => (await ruleOk(second.url, "9002")) === 0);
    await sleep(2500);
    expect(count("firing")).toBe(1);
    expect(count("resolved")).toBe(0);
    healthy(9002);
    await waitFor("the resolved notification", () => count("resolved") === 1);
    await sleep(2500);
    expect(await second.stop()).toBe(0);
    expect(count("firing")).toBe(1);
    expect(count("resolved")).toBe(1);
    const fired = hook.bodies.find((b) => b["status"] === "firing") as Record<string, unknown>;
    expect(fired).toMatchObject({
      project: 9002,
      product: "openstack",
      rule: "min-runway-days",
      level: "mandatory",
    });
    expect(String(fired["message"])).toMatch(/policy requires 14/);
    expect(fired["figures"]).toBeTypeOf("object");
    expect(Date.parse(String(fired["at"]))).not.toBeNaN();
    // the state holds neither the receiver's URL nor anything left to deliver
    const saved = readFileSync(state, "utf8");
    expect(saved).not.toContain(hook.url);
    expect(JSON.parse(saved).outbox).toEqual([]);
  }, 60_000);

  it("keeps serving the last figures and their age while the endpoint fails; read errors alert on their own", async () => {
    healthy(9003);
    await watching(watchArgs("9003", "--retries", "0", "--webhook", hook.url), async (w) => {
      const p = { project: "9003", product: "openstack" };
      await waitFor("a read", async () => metricValue(await scrape(w.url), "costgate_balance", p) === 10_000);
      const last = metricValue(await scrape(w.url), "costgate_last_success_timestamp_seconds", p);
      emu.knobs.billing.status = 503;
      await waitFor("the read-errors alert", () => count("firing", "read-errors") === 1);
      const text = await scrape(w.url);
      expect(metricValue(text, "costgate_balance", p)).toBe(10_000);
      expect(metricValue(text, "costgate_rule_ok", { ...p, rule: "min-runway-days" })).toBe(1);
      expect(metricValue(text, "costgate_last_success_timestamp_seconds", p)).toBe(last);
      expect(metricValue(text, "costgate_read_errors_total", p)).toBeGreaterThanOrEqual(3);
      expect(metricValue(text, "costgate_data_age_seconds", p)).toBeGreaterThanOrEqual(2);
      // a read error is no rule failure
      expect(count("firing")).toBe(0);
      emu.resetKnobs();
      await waitFor("the read-errors recovery", () => count("resolved", "read-errors") === 1);
      expect(count("firing", "read-errors")).toBe(1);
      expect(w.stderr()).toMatch(/could not be read; the last figures are served/);
      expect(await w.stop()).toBe(0);
    });
  }, 60_000);

  it("retries a failing webhook with backoff and delivers once when it recovers", async () => {
    broke(9004);
    hook.refuse = 3;
    const state = join(dir, "retry.json");
    await watching(watchArgs("9004", "--webhook", hook.url, "--state", state), async (w) => {
      await waitFor("the delivery after three refusals", () => count("firing") === 1, 40_000);
      await sleep(2000);
      expect(count("firing")).toBe(1);
      expect(hook.posts).toBe(4);
      expect(w.stderr()).toMatch(
        /webhook http:\/\/127\.0\.0\.1:\d+\/…: not delivered \(HTTP 500\); retried with backoff/,
      );
      expect(await w.stop()).toBe(0);
    });
  }, 60_000);
});

describe("costgate watch --once", () => {
  it("reads, judges, delivers, saves and exits; a second run sends nothing again", async () => {
    broke(9005);
    const state = join(dir, "once.json");
    const args = [
      "watch",
      "--once",
      "--project-id",
      "9005",
      "--min-runway-days",
      "14",
      "--webhook",
      hook.url,
      "--state",
      state,
    ];
    const gated = await runCli([...args, "--gate"], env);
    expect(gated.code).toBe(1);
    expect(gated.stdout).toMatch(/Project 9005: FAIL/);
    expect(gated.stdout).toMatch(/1 alert change\(s\); nothing left to deliver/);
    expect(count("firing")).toBe(1);
    const again = await runCli(args, env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/0 alert change\(s\)/);
    expect(count("firing")).toBe(1);
    // a webhook down: the notification is kept in the state and delivered by the next run
    healthy(9005);
    hook.refuse = 1;
    const down = await runCli(args, env);
    expect(down.code).toBe(0);
    expect(down.stdout).toMatch(/1 notification\(s\) kept in --state/);
    expect(count("resolved")).toBe(0);
    await sleep(2200); // past the first backoff
    const up = await runCli(args, env);
    expect(up.code).toBe(0);
    expect(count("resolved")).toBe(1);
    expect(count("firing")).toBe(1);
  }, 60_000);

  it("exits 3 with --gate when billing is unreachable, and 0 without", async () => {
    healthy(9006);
    emu.knobs.billing.status = 503;
    const args = ["watch", "--once", "--project-id", "9006", "--min-runway-days", "14", "--retries", "0"];
    expect((await runCli([...args, "--gate"], env)).code).toBe(3);
    expect((await runCli(args, env)).code).toBe(0);
  });
});
