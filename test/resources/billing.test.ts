/**
 * The billing data sources from the compiled build, in a Pulumi program run (mocks), with settings
 * from stack config; the same query in one run goes out once.
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { loadDist } from "../helpers/provider-host";

const require = createRequire(import.meta.url);
type Dist = typeof import("../../provider");

let emu: Emulator;
let dist: Dist;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  const pulumi = require("@pulumi/pulumi");
  process.env.PULUMI_CONFIG = JSON.stringify({
    "costgate:billingUrl": emu.billingUrl,
    "costgate:billingToken": emu.seed.billing.token,
  });
  pulumi.runtime.setMocks(
    {
      newResource: (a: { name: string; inputs: unknown }) => ({ id: a.name, state: a.inputs }),
      call: () => ({}),
    },
    "costgate-test",
    "test",
    true,
  );
  dist = loadDist<Dist>();
});
afterAll(async () => {
  await emu?.close();
  delete process.env.PULUMI_CONFIG;
});

it("reads the balance with settings from stack config, once per run", async () => {
  emu.requests.length = 0;
  const [a, b] = await Promise.all([
    dist.getProjectBalance({ projectId: 4242, product: "openstack" }),
    dist.getProjectBalance({ projectId: 4242, product: "openstack" }),
  ]);
  expect(a).toEqual(b);
  expect(typeof a.balance).toBe("number");
  expect(emu.requests.filter((r) => r.path === "/bill/graphql")).toHaveLength(1);
});

it("getProjectConsumptionOutput resolves to a ProjectConsumption during preview", async () => {
  const out = dist.getProjectConsumptionOutput({ projectId: 4242, from: "2026-10-01", to: "2026-10-31" });
  const value = await new Promise<import("../../provider").ProjectConsumption>((ok) => out.apply(ok));
  expect(value.days).toBe(31);
  expect(value.items).toHaveLength(31);
  expect(value.total.amount).toBeGreaterThan(0);
});

it("refuses bad input naming the field, before any request", async () => {
  emu.requests.length = 0;
  await expect(dist.getProjectConsumption({ projectId: 4242, from: "2026-02-30" })).rejects.toThrowError(
    /^from:/,
  );
  // an invalid Date: the field named, not toISOString's "Invalid time value"
  await expect(
    dist.getProjectConsumption({ projectId: 4242, from: new Date(Number.NaN) }),
  ).rejects.toThrowError(/^from: is an invalid Date/);
  await expect(
    dist.getProjectConsumption({ projectId: 4242, from: "2026-11-01", to: new Date(Number.NaN) }),
  ).rejects.toThrowError(/^to: is an invalid Date/);
  // bad settings reject the promise, naming the field, rather than throw from the call
  const bad = { projectId: 4242, billingUrl: "not a url" };
  const balance = dist.getProjectBalance(bad);
  const usage = dist.getProjectConsumption({ ...bad, from: "2026-11-01" });
  await expect(balance).rejects.toThrowError(/^billingUrl:/);
  await expect(usage).rejects.toThrowError(/^billingUrl:/);
  expect(emu.requests).toHaveLength(0);
});
