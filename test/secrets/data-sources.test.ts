/**
 * Canaries through the billing data sources (getProjectBalance, getProjectConsumption and their
 * Output forms), as a program calls them from the dist build: the results a program may export and
 * the errors it would print carry no access token, given as an argument or in COSTGATE_BILLING_TOKEN.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { loadDist } from "../helpers/provider-host";
import { addBillingCanaries, CanaryScan, errorTexts, printTally } from "./canary";
import { register } from "./register";

type Dist = typeof import("../../provider");
const scan = new CanaryScan();
let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  addBillingCanaries(scan, emu);
});
afterAll(async () => {
  printTally("test/secrets/data-sources.test.ts", scan);
  await emu?.close();
});

describe("billing data sources", () => {
  const period = { projectId: 4242, from: "2026-01-01", to: "2026-01-31" };

  it("return results without the token, whether it came as an argument or from the environment", async () => {
    const d = loadDist<Dist>();
    const byArg = { billingUrl: emu.billingUrl, billingToken: scan.get("billingToken") };
    const results: unknown[] = [
      await d.getProjectBalance({ projectId: 4242, ...byArg }),
      await d.getProjectConsumption({ ...period, ...byArg }),
    ];
    process.env.COSTGATE_BILLING_URL = emu.billingUrl;
    process.env.COSTGATE_BILLING_TOKEN = scan.get("billingToken");
    try {
      results.push(await d.getProjectBalance({ projectId: 1001 }));
      await register(() => undefined, 0);
      const out = d.getProjectConsumptionOutput({ ...period, projectId: 1001 }) as unknown as {
        promise(): Promise<unknown>;
      };
      results.push(await out.promise());
    } finally {
      delete process.env.COSTGATE_BILLING_URL;
      delete process.env.COSTGATE_BILLING_TOKEN;
    }
    expect(results).toHaveLength(4);
    scan.expectClean(
      "data source results",
      results.map((r) => JSON.stringify(r)),
    );
  });

  it("fail without the token in the error", async () => {
    const d = loadDist<Dist>();
    const e = await d
      .getProjectBalance({ projectId: 4242, billingUrl: emu.billingUrl, billingToken: scan.get("wrong") })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    scan.expectClean("data source errors", errorTexts(e));
  });
});
