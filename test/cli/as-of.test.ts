/**
 * `costgate check --as-of D` and `costgate report --as-of D`: a replay as at the start of UTC day D — no
 * charge of D or later is requested (the emulator's record of the periods asked), the balance is not
 * read, and the balance rules say why they are not judged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { runCli } from "../helpers/cli";

let emu: Emulator;
let env: Record<string, string>;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const sent = () =>
  emu.requests
    .filter((r) => r.path === "/bill/graphql")
    .map((r) => (r.body as { operationName: string; variables: { periodTo?: string } }) ?? {});

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
});
afterAll(async () => {
  await emu?.close();
});

/** replayJson runs `costgate <command> --project-id 4242 <flags> --as-of <asOf> --json`. */
const replayJson = (command: string, asOf: string, ...flags: string[]) =>
  runCli([command, "--project-id", "4242", ...flags, "--as-of", asOf, "--json"], env);

describe("costgate check --as-of", () => {
  it("reads nothing of that day or later, not even the balance, and says so for the balance rules", async () => {
    emu.requests.length = 0;
    const asOf = day(-5);
    const r = await replayJson("check", asOf, "--monthly-budget", "1000000", "--min-balance", "1");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.asOf).toBe(asOf);
    const requests = sent();
    expect(requests.map((q) => q.operationName)).toEqual(["CostgateConsumption"]);
    expect(requests[0]?.variables.periodTo).toBe(`${day(-6)}T23:59:59.999Z`);
    const findings = out.projects[0].evaluation.findings;
    expect(findings.find((f: { rule: string }) => f.rule === "monthly-budget").status).toBe("pass");
    expect(findings.find((f: { rule: string }) => f.rule === "min-balance")).toMatchObject({
      status: "not-judged",
      message: `The min-balance rule is not judged as of ${asOf}: the billing API gives only today's balance.`,
    });
  });

  it.each([
    [day(3), /--as-of: .* is after today/],
    ["2026-11-10T03:00:00Z", /--as-of: "2026-11-10T03:00:00Z" is not a day/],
    ["0026-11-10", /--as-of: "0026-11-10" is before 2000/],
  ])("refuses %s before any request", async (asOf, message) => {
    emu.requests.length = 0;
    const r = await runCli(["check", "--project-id", "4242", "--monthly-budget", "1", "--as-of", asOf], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(sent()).toHaveLength(0);
  });
});

describe("costgate report --as-of", () => {
  it("reads nothing of that day or later, shows the forecast band from that day, and no balance", async () => {
    emu.requests.length = 0;
    const asOf = day(-5);
    const r = await replayJson("report", asOf, "--monthly-budget", "60000", "--min-runway-days", "3");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ asOf, balance: null });
    expect(out.period.to).toBe(day(-6));
    const requests = sent();
    expect(requests.every((q) => q.operationName === "CostgateConsumption")).toBe(true);
    for (const q of requests)
      expect(q.variables.periodTo ?? "", JSON.stringify(requests)).toMatch(/^\d{4}-\d\d-\d\dT/);
    for (const q of requests)
      expect((q.variables.periodTo ?? "") < `${asOf}T00:00:00.000Z`, JSON.stringify(requests)).toBe(true);
    // the band starts on the as-of day itself (its whole day is still to come)
    if (asOf.slice(0, 7) === day(-6).slice(0, 7) || asOf.slice(8) !== "01") {
      expect(out.forecastDays[0].day).toBe(asOf);
      for (const d of out.forecastDays) expect(d.p50 <= d.p80 && d.p80 <= d.p90).toBe(true);
    }
    expect(out.evaluation.findings.find((f: { rule: string }) => f.rule === "min-runway-days").status).toBe(
      "not-judged",
    );
  });

  it("prints the replay in words, and refuses a --to on or after the as-of day before any request", async () => {
    const asOf = day(-5);
    const text = await runCli(
      ["report", "--project-id", "4242", "--monthly-budget", "60000", "--as-of", asOf],
      env,
    );
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`a replay as of ${asOf}`);
    expect(text.stdout).toMatch(/Balance\s+not read/);
    for (const line of text.stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80);
    emu.requests.length = 0;
    const bad = await runCli(
      ["report", "--project-id", "4242", "--monthly-budget", "1", "--as-of", asOf, "--to", asOf],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--to: .* is not before --as-of/);
    expect(sent()).toHaveLength(0);
  });
});
