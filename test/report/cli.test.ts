/**
 * `costgate report` and `costgate demo` as processes, against the emulator.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { addDays, isoDay } from "../../provider/billing/periods";
import { runCli } from "../helpers/cli";
import { emulatorNotice } from "../identity/conformance";
import { ANSI } from "./fixtures";

let emu: Emulator;
let env: Record<string, string>;
let dir: string;
const billingRequests = () => emu.requests.filter((r) => r.path === "/bill/graphql");
const today = isoDay(new Date());

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  const daily = Array.from({ length: 90 }, (_, i) => ({
    day: addDays(today, -i),
    totalAmount: i === 5 ? 900 : 100 + (i % 7) * 5,
    totalBonuses: i % 10 === 0 ? 2.5 : 0,
  }));
  emu.setProject({ id: 777, products: { 1: { balance: 5000, bonuses: 40, daily } } });
  env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
  dir = mkdtempSync(join(tmpdir(), "costgate-report-cli-"));
});
afterAll(async () => {
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  emu.resetKnobs();
  emu.requests.length = 0;
});

const budget = ["--monthly-budget", "3500", "--min-balance", "1000", "--min-runway-days", "14"];

describe("costgate report", () => {
  it("prints the terminal report piped: no color codes, 80 columns, no progress on stderr", async () => {
    const r = await runCli(["report", "--project-id", "777", ...budget], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(emulatorNotice(emu.url));
    expect(r.stdout).not.toMatch(ANSI);
    for (const line of r.stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(r.stdout).toMatch(/Project 777 \(openstack\)/);
    expect(r.stdout).toMatch(/Balance\s+5,000\.00\s+bonuses 40\.00/);
    expect(r.stdout).toMatch(/◂ budget( [\d,.]+)?$/m);
    expect(r.stdout).toMatch(/(PASS|FAIL)\s+monthly-budget\s+mandatory/);
    expect(r.stdout).toMatch(/Runway\s+\d+\.\d(–\d+\.\d)? days/);
    // the default period, 60 days to today, in 31-day windows: 2 requests; the rules' 12 weeks: 1; the balance
    expect(billingRequests()).toHaveLength(4);
  });

  it("prints no color with NO_COLOR, even when FORCE_COLOR is set", async () => {
    const forced = await runCli(["report", "--project-id", "777", ...budget], { ...env, FORCE_COLOR: "1" });
    expect(forced.stdout).toMatch(ANSI);
    const r = await runCli(["report", "--project-id", "777", ...budget], {
      ...env,
      FORCE_COLOR: "1",
      NO_COLOR: "1",
    });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(ANSI);
  });

  it("prints JSON with the balance, the consumption summary and the evaluation", async () => {
    const r = await runCli(["report", "--project-id", "777", ...budget, "--json"], env);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.period).toMatchObject({ from: addDays(today, -59), to: today });
    expect(j.balance).toMatchObject({ projectId: 777, productId: 1, balance: 5000, bonuses: 40 });
    expect(j.consumption.items).toHaveLength(60);
    expect(j.consumption.days).toBe(60);
    expect(j.config).toMatchObject({
      monthlyBudget: 3500,
      minBalance: 1000,
      minRunwayDays: 14,
      spikeFactor: 2,
    });
    expect(j.evaluation.findings.map((f: { rule: string }) => f.rule)).toEqual([
      "min-balance",
      "monthly-budget",
      "min-runway-days",
      "daily-spike",
    ]);
    expect(j.evaluation.findings[0]).toMatchObject({ status: "pass", level: "mandatory" });
  });

  it("gives no verdict without a threshold: never a PASS that checked nothing", async () => {
    for (const format of [[], ["--markdown"], ["--json"]]) {
      const r = await runCli(["report", "--project-id", "777", ...format], env);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/PASS: |### ✅/);
      if (format[0] === "--json") expect(JSON.parse(r.stdout).verdict).toBe("none");
      else expect(r.stdout).toMatch(/NO VERDICT: no budget threshold is set/);
    }
  });

  it("with --gate exits as check does: 2 without a threshold (nothing read), 1 on a mandatory failure", async () => {
    emu.requests.length = 0;
    const none = await runCli(["report", "--project-id", "777", "--markdown", "--gate"], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no budget threshold is set/);
    expect(emu.requests.filter((q) => q.path === "/bill/graphql")).toHaveLength(0);
    const failing = await runCli(
      ["report", "--project-id", "777", "--min-balance", "1000000000", "--gate"],
      env,
    );
    expect(failing.code).toBe(1);
    const passing = await runCli(["report", "--project-id", "777", "--min-balance", "1", "--gate"], env);
    expect(passing.code).toBe(0);
  });

  it("names the currency from --currency or the config file, in every format", async () => {
    const md = await runCli(
      ["report", "--project-id", "777", ...budget, "--markdown", "--currency", "EUR"],
      env,
    );
    expect(md.stdout).toMatch(/, amounts in EUR, made/);
    const json = await runCli(["report", "--project-id", "777", ...budget, "--json"], env);
    expect(JSON.parse(json.stdout).currency).toBeNull();
  });

  it("prints Markdown", async () => {
    const r = await runCli(["report", "--project-id", "777", ...budget, "--markdown"], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^### (✅|❌) costgate: Project 777 \(openstack\)/);
    expect(r.stdout).toContain("| Result | Rule | Level | Finding |");
  });

  it("writes the HTML file with --html and says where", async () => {
    const file = join(dir, "r.html");
    const r = await runCli(["report", "--project-id", "777", ...budget, "--html", file], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`HTML report written to ${file}`);
    const page = readFileSync(file, "utf8");
    expect((page.match(/<rect class="bar( over)?( partial)?" data-day=/g) ?? []).length).toBe(60);
  });

  it("reads the days the rules need when the period ends before this month", async () => {
    const from = addDays(today, -80);
    const to = addDays(today, -70);
    const r = await runCli(["report", "--project-id", "777", "--from", from, "--to", to, "--json"], env);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.consumption.items).toHaveLength(11);
    expect(j.evaluation.figures.lastFullDay).toBe(addDays(today, -1));
    expect(j.evaluation.figures.dailyAverage).toBeGreaterThan(0);
    expect(billingRequests()).toHaveLength(3);
  });

  it.each([
    [["--project-id", "abc"], /--project-id: "abc" is not a project id/],
    [[], /--project-id: missing/],
    [["--project-id", "777", "--product", "aws"], /--product: "aws" is not a product/],
    [["--project-id", "777", "--from", "2026-02-30"], /--from: "2026-02-30" is not a real date/],
    [["--project-id", "777", "--from", "2026-11-05", "--to", "2026-11-01"], /--to: .* is before --from/],
    [["--project-id", "777", "--to", "2026-02-30"], /--to: "2026-02-30" is not a real date/],
    [["--project-id", "777", "--to", "yesterday"], /--to: "yesterday" is not a date/],
    [["--project-id", "777", "--monthly-budget", "lots"], /--monthly-budget: "lots" is not a number/],
    [["--project-id", "777", "--min-balance", "-5"], /--min-balance: must be 0 or more/],
    [["--project-id", "777", "--spike-factor", "0.5"], /--spike-factor: must be 1 or more/],
    [["--project-id", "777", "--min-runway-days", ""], /--min-runway-days: "" is not a number/],
    [["--project-id", "777", "--json", "--markdown"], /--json and --markdown: choose one/],
    [
      ["--project-id", "777", "--html", "/nonexistent/dir/r.html"],
      /--html: the folder \/nonexistent\/dir does not exist/,
    ],
    [["--project-id", "777", "--timeout", "soon"], /--timeout: "soon" is not a positive number/],
    [["--project-id", "777", "--bogus"], /unknown option '--bogus'/],
  ])("exits 2 before any request: %j", async (args, message) => {
    const r = await runCli(["report", ...args], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
    expect(billingRequests()).toHaveLength(0);
  });

  it("exits 2 without a billing token, before any request", async () => {
    const r = await runCli(["report", "--project-id", "777"], { COSTGATE_BILLING_URL: emu.billingUrl });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/billingToken: missing/);
    expect(billingRequests()).toHaveLength(0);
  });

  it("exits 3 when the billing endpoint refuses the token, and never prints it", async () => {
    const r = await runCli(["report", "--project-id", "777"], {
      ...env,
      COSTGATE_BILLING_TOKEN: "canary-wrong",
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^costgate: error: .*X-User-Token/m);
    expect(r.stderr.startsWith(emulatorNotice(emu.url))).toBe(true);
    expect(r.stderr).not.toContain("canary-wrong");
    expect(r.stdout).toBe("");
  });

  it("exits 3 on GraphQL errors, and on a project without data", async () => {
    emu.knobs.billing.graphqlErrors = ["internal error"];
    const r = await runCli(["report", "--project-id", "777"], env);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/GraphQL errors: internal error/);
    emu.resetKnobs();
    const none = await runCli(["report", "--project-id", "999999"], env);
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/no data/);
  });

  it("documents itself with examples", async () => {
    const r = await runCli(["report", "--help"], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: costgate report \[options\]/);
    for (const flag of [
      "--project-id",
      "--from",
      "--to",
      "--html",
      "--markdown",
      "--json",
      "--monthly-budget",
    ]) {
      expect(r.stdout).toContain(flag);
    }
    expect(r.stdout).toMatch(/Examples:\n {2}export COSTGATE_BILLING_URL=/);
    expect(r.stdout).toMatch(/Exit codes: 0/);
  });
});

describe("start-up", () => {
  it("loads no chart, color, progress or report module for --version", async () => {
    const main = resolve(__dirname, "../../dist/cli/main.js");
    const script = `require(${JSON.stringify(main)}).main(["node", "costgate", "--version"]).then(() => {
      const loaded = Object.keys(require.cache).filter((p) => /asciichart|picocolors|cli-progress|escape-html|cli[\\/]report/.test(p));
      process.stderr.write(JSON.stringify(loaded));
    });`;
    const r = await new Promise<{ stdout: string; stderr: string }>((ok) =>
      execFile(process.execPath, ["-e", script], (_e, stdout, stderr) => ok({ stdout, stderr })),
    );
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(JSON.parse(r.stderr)).toEqual([]);
  });
});

describe("costgate demo", () => {
  it("prints the report and writes costgate-report.html in the current folder, offline", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "costgate-demo-"));
    try {
      const started = Date.now();
      const r = await new Promise<{ code: number; stdout: string; stderr: string }>((ok) => {
        execFile(
          process.execPath,
          [resolve(__dirname, "../../bin/costgate"), "demo"],
          { cwd, env: { PATH: process.env["PATH"] ?? "", HOME: "/nonexistent" }, timeout: 30_000 },
          (err, stdout, stderr) =>
            ok({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
        );
      });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("");
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(r.stdout).toMatch(/costgate report · Project 4242 \(openstack\)/);
      expect(r.stdout).toMatch(/Demo thresholds|demo thresholds/);
      expect(r.stdout).toMatch(/◂ budget$/m);
      expect(r.stdout).toMatch(/Rules\s+(PASS|FAIL)/);
      expect(r.stdout).not.toMatch(ANSI);
      for (const line of r.stdout.split("\n")) {
        // the one line that names the file is as long as the folder's path
        if (!line.startsWith("HTML report written to")) expect(line.length, line).toBeLessThanOrEqual(80);
      }
      const file = join(cwd, "costgate-report.html");
      expect(r.stdout).toContain(`HTML report written to ${file}`);
      expect(existsSync(file)).toBe(true);
      const page = readFileSync(file, "utf8");
      expect((page.match(/<rect class="bar( over)?( partial)?" data-day=/g) ?? []).length).toBe(60);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe("why the forecast moved, end to end", () => {
  // the emulator's project 1001 steps up 1.8× ten days ago (emulator/seed.ts): the model finds the step
  const stepped = ["--project-id", "1001", "--monthly-budget", "9000"];
  const near = (day: string) => day >= addDays(today, -13) && day <= addDays(today, -7);

  it("report --json and its terminal say the step; check and check --json too", async () => {
    const json = JSON.parse(
      (await runCli(["report", ...stepped, "--json", "--currency", "EUR"], env)).stdout,
    );
    const step = json.forecast.reasons.find((r: { kind: string }) => r.kind === "step");
    expect(near(step.day), step.day).toBe(true);
    // "on 22 December", with its year when the step is in last year (in the first days of January)
    const year = step.day.slice(0, 4) === today.slice(0, 4) ? "" : ` ${step.day.slice(0, 4)}`;
    const on = `${Number(step.day.slice(8))} [A-Z][a-z]+${year}`;
    expect(step).toMatchObject({
      kind: "step",
      text: expect.stringMatching(new RegExp(`^the level rose \\d+ % on ${on} \\(a step`)),
    });
    expect(step.ratio).toBeGreaterThan(1.5);
    const terminal = await runCli(["report", ...stepped], env);
    expect(terminal.stdout).toMatch(/^Why {9}· the level rose \d+ % on/m);
    const check = await runCli(["check", ...stepped], env);
    expect(check.stdout).toMatch(/monthly-budget \(mandatory\).*\n {13}why: the level rose \d+ % on/);
    const checkJson = JSON.parse((await runCli(["check", ...stepped, "--json"], env)).stdout);
    expect(checkJson.projects[0].evaluation.figures.forecast.reasons).toContainEqual({
      ...step,
      text: step.text,
    });
  });
});
