/**
 * The real parts: Debian's prometheus scrapes a running `costgate watch` (interval 1 s) against the
 * emulator and its query API returns the emulator's figures; the examples' alert rules pass `promtool
 * check rules` and their unit tests, and the scrape config passes `promtool check config`.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { series, startWatch, waitFor } from "./harness";

const EXAMPLES = resolve(__dirname, "../../examples/watch");
const HAS_PROMETHEUS =
  spawnSync("prometheus", ["--version"]).status === 0 && spawnSync("promtool", ["--version"]).status === 0;
if (!HAS_PROMETHEUS && process.env["CI"] === "true")
  throw new Error("prometheus and promtool are missing: install Debian's prometheus package (.ci/run does)");
const maybe = HAS_PROMETHEUS ? describe : describe.skip;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "costgate-prom-"));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

maybe("examples/watch with promtool", () => {
  it("the alert rules pass promtool check rules and their unit tests", () => {
    const check = spawnSync("promtool", ["check", "rules", "alerts.yml"], {
      cwd: EXAMPLES,
      encoding: "utf8",
    });
    expect(check.stdout + check.stderr).toMatch(/SUCCESS: 4 rules found/);
    expect(check.status).toBe(0);
    const test = spawnSync("promtool", ["test", "rules", "alerts.test.yml"], {
      cwd: EXAMPLES,
      encoding: "utf8",
    });
    expect(test.stdout + test.stderr).toMatch(/SUCCESS/);
    expect(test.status).toBe(0);
  });

  it("the scrape config passes promtool check config", () => {
    copyFileSync(join(EXAMPLES, "prometheus.yml"), join(dir, "prometheus.yml"));
    copyFileSync(join(EXAMPLES, "alerts.yml"), join(dir, "alerts.yml"));
    const r = spawnSync("promtool", ["check", "config", "prometheus.yml"], { cwd: dir, encoding: "utf8" });
    expect(r.stdout + r.stderr).toMatch(/SUCCESS/);
    expect(r.status).toBe(0);
  });
});

maybe("a real prometheus scraping costgate watch", () => {
  let emu: Emulator;
  let prom: ChildProcess | undefined;
  afterAll(async () => {
    prom?.kill("SIGKILL");
    await emu?.close();
  });

  it("returns the emulator's figures through its query API", async () => {
    emu = await startEmulator({ port: 0 });
    emu.setProject({ id: 9101, products: { 1: { balance: 12_345.67, bonuses: 8, daily: series(50) } } });
    const env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
    const w = await startWatch(
      ["--project-id", "9101", "--interval", "1s", "--min-balance", "1000", "--min-runway-days", "14"],
      env,
    );
    try {
      const port = await freePort();
      const target = w.url.replace("http://", "");
      writeFileSync(
        join(dir, "scrape.yml"),
        `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: costgate\n    static_configs:\n      - targets: ["${target}"]\n`,
      );
      prom = spawn(
        "prometheus",
        [
          `--config.file=${join(dir, "scrape.yml")}`,
          `--storage.tsdb.path=${join(dir, "data")}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: "ignore" },
      );
      const query = async (q: string) => {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(q)}`);
          const body = (await res.json()) as {
            data?: { result?: { metric: Record<string, string>; value: [number, string] }[] };
          };
          return body.data?.result ?? [];
        } catch {
          return [];
        }
      };
      const balance = await waitFor(
        "prometheus to scrape the balance",
        async () => {
          const r = await query('costgate_balance{project="9101"}');
          return r.length > 0 && r;
        },
        60_000,
      );
      expect(balance[0]?.metric).toMatchObject({ job: "costgate", project: "9101", product: "openstack" });
      expect(Number(balance[0]?.value[1])).toBe(12_345.67);
      expect(Number((await query('costgate_bonuses{project="9101"}'))[0]?.value[1])).toBe(8);
      expect(Number((await query('costgate_min_balance{project="9101"}'))[0]?.value[1])).toBe(1000);
      expect(Number((await query('costgate_rule_ok{project="9101",rule="min-balance"}'))[0]?.value[1])).toBe(
        1,
      );
      // 12,345.67 at 50 a day: about 247 days at every quantile
      const runway = await query('costgate_runway_days{project="9101"}');
      expect(runway.map((r) => r.metric["quantile"]).sort()).toEqual(["0.5", "0.8", "0.9"]);
      for (const r of runway) expect(Number(r.value[1])).toBeGreaterThan(200);
      const age = await query('time() - costgate_last_success_timestamp_seconds{project="9101"}');
      expect(Number(age[0]?.value[1])).toBeLessThan(30);
      expect(Number((await query('up{job="costgate"}'))[0]?.value[1])).toBe(1);
      expect(await w.stop()).toBe(0);
    } finally {
      w.child.kill("SIGKILL");
    }
  }, 90_000);
});
