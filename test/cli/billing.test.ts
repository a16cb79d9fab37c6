/**
 * `costgate balance` and `costgate usage` as a process, against the emulator.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { runCli } from "../helpers/cli";

let emu: Emulator;
let env: Record<string, string>;
const billingRequests = () => emu.requests.filter((r) => r.path === "/bill/graphql");

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  emu.setProject({
    id: 777,
    products: {
      1: {
        balance: 1234.5,
        bonuses: 10,
        daily: [
          { day: "2026-11-02", totalAmount: 0.2, totalBonuses: 0 },
          { day: "2026-11-01", totalAmount: 0.1, totalBonuses: 0.05 },
        ],
      },
    },
  });
  env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(() => {
  emu.resetKnobs();
  emu.requests.length = 0;
});

describe("costgate balance", () => {
  it("prints {projectId, productId, balance, bonuses, fetchedAt} with --json", async () => {
    const r = await runCli(["balance", "--project-id", "777", "--json"], env);
    expect(r.code).toBe(0);
    const b = JSON.parse(r.stdout);
    expect(b).toMatchObject({ projectId: 777, productId: 1, balance: 1234.5, bonuses: 10 });
    expect(Date.parse(b.fetchedAt)).toBeGreaterThan(0);
  });

  it("takes COSTGATE_PROJECT_ID and COSTGATE_PRODUCT", async () => {
    const r = await runCli(["balance"], {
      ...env,
      COSTGATE_PROJECT_ID: "777",
      COSTGATE_PRODUCT: "openstack",
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Project 777 \(openstack\): balance 1,234.50, bonuses 10.00/);
  });

  it("exits 3 with the 401 hint and no token", async () => {
    const r = await runCli(["balance", "--project-id", "777"], {
      ...env,
      COSTGATE_BILLING_TOKEN: "canary-wrong-token",
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/X-User-Token/);
    expect(r.stderr).not.toContain("canary-wrong-token");
  });

  it.each([
    [["balance", "--project-id", "abc"], /--project-id: "abc" is not a project id/],
    [["balance", "--project-id", "777", "--product", "aws"], /--product: "aws" is not a product/],
    [["balance"], /--project-id: missing/],
  ])("exits 2 before any request: %j", async (args, message) => {
    const r = await runCli(args, env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(billingRequests()).toHaveLength(0);
  });

  it("tries as often as --retries says, over COSTGATE_RETRIES, and refuses a bad count", async () => {
    Object.assign(emu.knobs.billing, { status: 503, failTimes: 2 });
    const none = await runCli(["balance", "--project-id", "777", "--retries", "0"], {
      ...env,
      COSTGATE_RETRIES: "5",
    });
    expect(none.code).toBe(3);
    expect(billingRequests()).toHaveLength(1);
    const two = await runCli(["balance", "--project-id", "777", "--retries", "2"], env);
    expect(two.code).toBe(0);
    expect(billingRequests()).toHaveLength(3);
    const bad = await runCli(["balance", "--project-id", "777", "--retries", "-1"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--retries: "-1" is not a whole number of 0 or more/);
    expect(billingRequests()).toHaveLength(3);
  });

  it("exits 2 when the billing token is missing", async () => {
    const r = await runCli(["balance", "--project-id", "777"], { COSTGATE_BILLING_URL: emu.billingUrl });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/billingToken: missing; create a console access token/);
  });
});

describe("costgate usage", () => {
  const args = ["usage", "--project-id", "777", "--from", "2026-11-01", "--to", "2026-11-02"];

  it("names the days its short average covers: a 2-day period says 'last 2 days', not 7", async () => {
    const r = await runCli(args, env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/daily average 0\.15 over 2 days; last 2 days 0\.15\/day/);
    const week = await runCli(
      ["usage", "--project-id", "777", "--from", "2026-10-20", "--to", "2026-11-02"],
      env,
    );
    expect(week.stdout).toMatch(/over 14 days; last 7 days /);
  });

  it("prints the JSON shape with exact totals", async () => {
    const r = await runCli([...args, "--json"], env);
    expect(r.code).toBe(0);
    const u = JSON.parse(r.stdout);
    expect(u).toMatchObject({
      projectId: 777,
      productId: 1,
      periodFrom: "2026-11-01T00:00:00.000Z",
      periodTo: "2026-11-02T23:59:59.999Z",
      items: [
        { day: "2026-11-01", totalAmount: 0.1, totalBonuses: 0.05 },
        { day: "2026-11-02", totalAmount: 0.2, totalBonuses: 0 },
      ],
      total: { amount: 0.3, bonuses: 0.05 },
      dailyAverage: 0.15,
      days: 2,
    });
  });

  it("defaults --to to today, as report and the library do", async () => {
    const r = await runCli(["usage", "--project-id", "777", "--from", "2026-11-01", "--json"], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).periodTo.slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));
  });

  it("stops at --max-requests, retries included, naming the cap", async () => {
    emu.knobs.billing.status = 503;
    const r = await runCli(
      [
        "usage",
        "--project-id",
        "777",
        "--from",
        "2026-10-01",
        "--to",
        "2026-11-02",
        "--max-requests",
        "4",
        "--concurrency",
        "1",
      ],
      { ...env, COSTGATE_RETRIES: "5" },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--max-requests: reached: 4 requests already sent, the most allowed; not sending POST/,
    );
    expect(billingRequests()).toHaveLength(4);
  });

  it("takes the cap from COSTGATE_MAX_REQUESTS and names it", async () => {
    emu.knobs.billing.status = 503;
    const r = await runCli(["balance", "--project-id", "777"], {
      ...env,
      COSTGATE_MAX_REQUESTS: "2",
      COSTGATE_RETRIES: "5",
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/COSTGATE_MAX_REQUESTS: reached: 2 requests/);
    expect(billingRequests()).toHaveLength(2);
  });

  it("prints CSV and a table", async () => {
    const csv = await runCli([...args, "--csv"], env);
    expect(csv.stdout).toBe("day,totalAmount,totalBonuses\n2026-11-01,0.1,0.05\n2026-11-02,0.2,0\n");
    const table = await runCli(args, env);
    expect(table.stdout).toMatch(/total\s+0.30\s+0.05/);
  });

  it.each([
    [["--from", "2026-02-30", "--to", "2026-03-01"], /--from: "2026-02-30" is not a real date/],
    [["--from", "2026-11-05", "--to", "2026-11-01"], /--to: .* is before --from/],
    [["--to", "2026-11-01"], /--from: missing/],
    [
      ["--from", "bogus"],
      /--from: "bogus" is not a date; use a date YYYY-MM-DD or an ISO 8601 timestamp \(2026-11-01T00:00:00Z\)$/m,
    ],
    [["--from", "2026-13-01"], /--from: "2026-13-01" is not a real date \(there is no month 13\)/],
    [
      ["--from", "0026-11-01", "--to", "2026-11-22"],
      /--from: "0026-11-01" is before 2000: is the year a typo\?/,
    ],
    [["--from", "1900-01-01"], /--from: "1900-01-01" is before 2000/],
    [
      ["--from", "2016-01-01", "--to", "2026-11-22"],
      /--from: the period 2016-01-01 to 2026-11-22 is 3979 days, longer than 1096 \(--max-period-days\)/,
    ],
    [
      ["--from", "2026-01-01", "--to", "2026-11-22", "--max-period-days", "30"],
      /longer than 30 \(--max-period-days\)/,
    ],
    [
      ["--from", "2024-01-01", "--to", "2026-11-22", "--window-days", "1"],
      /--max-requests: the period 2024-01-01 to 2026-11-22 needs 1057 requests \(windows of 1 day\), more than 500/,
    ],
    [["--from", "2026-11-01", "--max-requests", "0"], /--max-requests: "0" is not a whole number/],
    [["--from", "2026-11-01", "--to", "2026-11-02", "--json", "--csv"], /choose one/],
  ])("exits 2 before any request: %j", async (extra, message) => {
    const r = await runCli(["usage", "--project-id", "777", ...extra], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(billingRequests()).toHaveLength(0);
  });

  it("exits 3 on an HTML 502 with the status named", async () => {
    emu.knobs.billing.htmlError = true;
    emu.knobs.billing.status = 502;
    const r = await runCli([...args, "--json"], env);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/502.*HTML page/);
  });
});
