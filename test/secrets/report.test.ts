/**
 * Canaries through `costgate report` (COSTGATE_DEBUG=1): the terminal, HTML, Markdown and JSON
 * reports, stdout and stderr carry no access token — on success, on a refused token and from an
 * endpoint that echoes the request.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { runCli } from "../helpers/cli";
import { addBillingCanaries, CanaryScan, printTally } from "./canary";
import { type EchoServer, startEchoServer } from "./echo-server";

const scan = new CanaryScan();
let emu: Emulator;
let echo: EchoServer;
let env: Record<string, string>;
let dir: string;
const budget = ["--monthly-budget", "40000", "--min-balance", "1000", "--min-runway-days", "14"];

async function report(args: string[], e: Record<string, string>, code: number) {
  const r = await runCli(["report", "--project-id", "4242", ...budget, ...args], {
    COSTGATE_DEBUG: "1",
    ...e,
  });
  expect(r.code, r.stderr).toBe(code);
  expect(r.stderr).toMatch(/costgate: (->|error)/);
  scan.expectClean("report stdout and stderr", [r.stdout, r.stderr]);
  return r;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  echo = await startEchoServer();
  const token = addBillingCanaries(scan, emu);
  env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: token };
  dir = mkdtempSync(join(tmpdir(), "costgate-secrets-report-"));
});
afterAll(async () => {
  printTally("test/secrets/report.test.ts", scan);
  await echo?.close();
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("costgate report", () => {
  it("writes terminal, HTML, Markdown and JSON reports without the access token", async () => {
    const html = join(dir, "report.html");
    const terminal = await report(["--html", html], env, 0);
    expect(terminal.stdout).toMatch(/Project 4242/);
    const page = readFileSync(html, "utf8");
    expect(page).toMatch(/<html/i);
    scan.expectClean("HTML report", page);
    const md = await report(["--markdown"], env, 0);
    expect(md.stdout).toMatch(/4242/);
    scan.expectClean("Markdown report", md.stdout);
    const json = await report(["--json"], env, 0);
    expect(JSON.parse(json.stdout)).toHaveProperty("balance");
    scan.expectClean("JSON report", json.stdout);
  });

  it("exits 3 without a canary on a refused token, a 5xx and an endpoint that echoes the request", async () => {
    await report(["--json"], { ...env, COSTGATE_BILLING_TOKEN: scan.get("wrong") }, 3);
    emu.knobs.billing.status = 500;
    await report(["--markdown"], env, 3);
    emu.resetKnobs();
    for (const status of [401, 500, 200]) {
      echo.status = status;
      await report(["--json"], { ...env, COSTGATE_BILLING_URL: echo.url }, 3);
    }
  });
});
