/**
 * Canaries through the budget policy pack over the analyzer protocol (COSTGATE_DEBUG=1): its
 * diagnostics and everything its process printed carry no access token — with violations, with a
 * refused token, a 5xx and an endpoint that echoes the request.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { type PolicyPackProcess, startPolicyPack } from "../helpers/analyzer";
import { addBillingCanaries, CanaryScan, printTally } from "./canary";
import { type EchoServer, startEchoServer } from "./echo-server";

const scan = new CanaryScan();
let emu: Emulator;
let echo: EchoServer;
let pack: PolicyPackProcess | undefined;

const config = {
  "min-balance": { enforcementLevel: "mandatory", projectId: 4242, minBalance: 1e9 },
  "monthly-budget": { enforcementLevel: "mandatory", projectId: 4242, monthlyBudget: 1 },
  "min-runway-days": { enforcementLevel: "mandatory", projectId: 4242, minRunwayDays: 1e5 },
  "daily-spike": { enforcementLevel: "advisory", projectId: 4242, spikeFactor: 1.01 },
  "billing-available": { enforcementLevel: "advisory", projectId: 4242 },
};

async function analyze(env: Record<string, string>) {
  pack = await startPolicyPack({ COSTGATE_DEBUG: "1", ...env });
  await pack.configure(config);
  const diagnostics = await pack.analyzeStack([{ type: "pulumi:pulumi:Stack", name: "app-ci", props: {} }]);
  expect(diagnostics.length).toBeGreaterThan(0);
  scan.expectClean("policy diagnostics", JSON.stringify(diagnostics));
  return diagnostics;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  echo = await startEchoServer();
  addBillingCanaries(scan, emu);
});
/** closePack scans what the pack process printed, then stops it. */
function closePack(): void {
  if (pack) scan.expectClean("policy pack process output", pack.output());
  pack?.close();
  pack = undefined;
}

afterEach(() => {
  closePack();
  emu.resetKnobs();
});
afterAll(async () => {
  printTally("test/secrets/policy-pack.test.ts", scan);
  await echo?.close();
  await emu?.close();
});

describe("the budget policy pack", () => {
  const env = () => ({
    COSTGATE_BILLING_URL: emu.billingUrl,
    COSTGATE_BILLING_TOKEN: scan.get("billingToken"),
  });

  it("reports violations with figures and no token", async () => {
    const d = await analyze(env());
    expect(d.map((x) => x.policyName)).toContain("min-balance");
    expect(pack?.output()).toMatch(/costgate: -> POST/);
  });

  it("reports billing errors with no token: refused, 5xx, echoed", async () => {
    const refused = await analyze({ ...env(), COSTGATE_BILLING_TOKEN: scan.get("wrong") });
    expect(refused.map((x) => x.message).join("\n")).toMatch(/401/);
    closePack();
    emu.knobs.billing.status = 500;
    await analyze(env());
    for (const status of [401, 500, 200]) {
      closePack();
      echo.status = status;
      await analyze({ ...env(), COSTGATE_BILLING_URL: echo.url });
    }
  });
});
