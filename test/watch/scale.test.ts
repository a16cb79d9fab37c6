/**
 * Scale: 1,000 emulator projects watched within the request caps — two requests a project a cycle,
 * at most --concurrency at once — with the watch's memory bounded.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { runCli } from "../helpers/cli";
import { startWatch, waitFor } from "./harness";

let emu: Emulator;
let env: Record<string, string>;
let ids: number[];
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  ids = emu.addSyntheticProjects(1000, 200_000);
  env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
});
afterAll(async () => {
  await emu?.close();
});

const graphql = () => emu.requests.filter((r) => r.path === "/bill/graphql").length;
const projects = () => ["--project-id", ids.join(","), "--min-runway-days", "7", "--max-requests", "2000"];

describe("costgate watch with 1,000 projects", () => {
  it("reads each project with two requests a cycle and refuses a cap that cannot cover a cycle", async () => {
    emu.requests.length = 0;
    const r = await runCli(["watch", "--once", ...projects(), "--concurrency", "16"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(graphql()).toBe(2000);
    const refused = await runCli(["watch", "--once", ...projects(), "--max-requests", "1999"], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /1000 projects need at least 2000 requests a cycle, more than the cap of 1999/,
    );
  }, 60_000);

  it("serves 1,000 projects' figures with bounded memory, cycle after cycle", async () => {
    emu.requests.length = 0;
    const w = await startWatch([...projects(), "--interval", "2s", "--concurrency", "16"], env);
    try {
      await waitFor(
        "every project's balance",
        async () =>
          ((await (await fetch(`${w.url}/metrics`)).text()).match(/^costgate_balance\{/gm) ?? []).length ===
          1000,
        60_000,
      );
      const start = Date.now();
      const before = graphql();
      await new Promise((r) => setTimeout(r, 6000));
      const cycles = Math.ceil((Date.now() - start) / 2000) + 1;
      // never more than two requests a project a cycle
      expect(graphql() - before).toBeLessThanOrEqual(2000 * cycles);
      const status = readFileSync(`/proc/${w.child.pid}/status`, "utf8");
      const hwmKiB = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
      expect(hwmKiB).toBeGreaterThan(0);
      expect(hwmKiB / 1024).toBeLessThan(300);
      console.log(`watch of 1,000 projects: peak RSS ${Math.round(hwmKiB / 1024)} MiB`);
      expect(await w.stop()).toBe(0);
    } finally {
      w.child.kill("SIGKILL");
    }
  }, 120_000);
});
