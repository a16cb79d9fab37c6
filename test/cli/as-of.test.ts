/**
 * `costgate check --as-of D`: a replay as at the start of UTC day D — no charge of D or later is
 * requested (the emulator's record of the periods asked), the balance is not read, and the balance rules
 * say why they are not judged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { runCli } from "../identity/conformance";

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

describe("costgate check --as-of", () => {
  it("reads nothing of that day or later, not even the balance, and says so for the balance rules", async () => {
    emu.requests.length = 0;
    const asOf = day(-5);
    const r = await runCli(
      [
        "check",
        "--project-id",
        "4242",
        "--monthly-budget",
        "1000000",
        "--min-balance",
        "1",
        "--as-of",
        asOf,
        "--json",
      ],
      env,
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.asOf).toBe(asOf);
    const requests = sent();
    expect(requests.map((q) => q.operationName)).toEqual(["CostgateConsumption"]);
    expect(requests[0]?.variables.periodTo).toBe(`${day(-6)}T23:59:59.999Z`);
    const findings = out.projects[0].evaluation.findings;
    expect(findings.find((f: { rule: string }) => f.rule === "monthly-budget").status).toBe("pass");
    expect(findings.find((f: { rule: string }) => f.rule === "min-balance")).toMatchObject({
      status: "skip",
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
