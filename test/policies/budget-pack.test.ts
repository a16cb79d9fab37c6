/**
 * The compiled budget pack driven over Pulumi's analyzer protocol (GetAnalyzerInfo, Configure,
 * AnalyzeStack), as `pulumi preview --policy-pack` drives it, against the emulator.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../helpers/analyzer";
import { app, dailySeries, type PackConfig, packHarness } from "./pack-harness";

/**
 * 60 days of 100.00 a day, then yesterday at `yesterday`, today partial. (60, not 30: the model needs 8 backtests
 * at the month-end horizon for normal confidence — with 30 days only the last ~9 days of a month have them, and
 * the messages below gained a "low confidence" note on 7 December.)
 */
const series = (yesterday: number) => dailySeries(60, (i) => (i === 1 ? yesterday : 100));
const h = packHarness([
  // Runway 10 days at 100/day; no spike.
  { id: 5001, products: { 1: { balance: 1000, bonuses: 0, daily: series(100) } } },
  // Yesterday 5 times the median.
  { id: 5002, products: { 1: { balance: 100000, bonuses: 0, daily: series(500) } } },
]);
const env = h.env;

/** The rule policies a test does not name are disabled, as a user turns off what they do not want. */
const RULES = ["min-balance", "monthly-budget", "min-runway-days", "daily-spike"];
const onlyNamed = (config: PackConfig): PackConfig => ({
  ...Object.fromEntries(RULES.map((r) => [r, { enforcementLevel: "disabled" }])),
  ...config,
});

async function run(config: PackConfig, resources = app, e = env(), fill = onlyNamed) {
  const pack = await h.start(e);
  await pack.configure(fill(config));
  return pack.analyzeStack(resources);
}

describe("the budget pack over the analyzer protocol", () => {
  it("lists its policies with levels and config schemas", async () => {
    const pack = await h.start();
    const info = await pack.info();
    expect(info.name).toBe("costgate-budget");
    expect(info.policies.map((p) => [p.name, p.enforcementLevel])).toEqual([
      ["min-balance", "mandatory"],
      ["monthly-budget", "mandatory"],
      ["min-runway-days", "mandatory"],
      ["daily-spike", "advisory"],
      ["billing-available", "advisory"],
    ]);
    expect(info.policies.every((p) => p.configSchema)).toBe(true);
  });

  it("is not green when nothing is configured: a mandatory violation per rule, naming what to set", async () => {
    const ds = await run({}, app, env(), (c) => c);
    const mandatory = ds.filter((d) => d.enforcementLevel === "mandatory");
    expect(mandatory.map((d) => d.policyName)).toEqual(["min-balance", "monthly-budget", "min-runway-days"]);
    for (const d of mandatory) expect(d.message).toMatch(/not configured: .*projectId.*--policy-pack-config/);
    // a project from the environment but no thresholds: still not green
    const named = await run({}, app, { ...env(), COSTGATE_PROJECT_ID: "5001" }, (c) => c);
    expect(named.filter((d) => d.enforcementLevel === "mandatory").map((d) => d.message)).toEqual([
      expect.stringMatching(/^The min-balance policy is not configured for project 5001: set minBalance/),
      expect.stringMatching(
        /^The monthly-budget policy is not configured for project 5001: set monthlyBudget/,
      ),
      expect.stringMatching(
        /^The min-runway-days policy is not configured for project 5001: set minRunwayDays/,
      ),
    ]);
  });

  it("reports a mandatory violation with figures, and nothing when the threshold is met", async () => {
    const failing = await run({
      "min-runway-days": { enforcementLevel: "mandatory", projectId: 5001, minRunwayDays: 14 },
    });
    expect(failing).toHaveLength(1);
    expect(failing[0]).toMatchObject({ policyName: "min-runway-days", enforcementLevel: "mandatory" });
    expect(failing[0]?.message).toMatch(
      /Project 5001's balance of 1,000\.00 is 80 % likely to last at least (9\.\d|10(\.0)?) days at its forecast spend; the policy requires 14\./,
    );
    h.pack?.close();
    const passing = await run({
      "min-runway-days": { enforcementLevel: "mandatory", projectId: 5001, minRunwayDays: 5 },
    });
    expect(passing).toEqual([]);
  });

  it("reports an advisory spike", async () => {
    const ds = await run({ "daily-spike": { enforcementLevel: "advisory", projectId: 5002 } });
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({ policyName: "daily-spike", enforcementLevel: "advisory" });
    expect(ds[0]?.message).toMatch(
      /Project 5002 spent 500\.00 on .*5(\.0)? times the 14-day median of 100\.00/,
    );
  });

  it("says nothing for a disabled policy", async () => {
    const ds = await run({
      "min-balance": { enforcementLevel: "disabled", projectId: 5001, minBalance: 1e9 },
      "daily-spike": { enforcementLevel: "disabled", projectId: 5002 },
    });
    expect(ds).toEqual([]);
  });

  it("checks several projects, each with its own thresholds, one fetch per project", async () => {
    h.emu.requests.length = 0;
    const ds = await run({
      "min-balance": {
        enforcementLevel: "mandatory",
        projects: { "5001": { minBalance: 5000 }, "5002": { minBalance: 5000 } },
      },
      "min-runway-days": {
        enforcementLevel: "mandatory",
        projects: { "5001": { minRunwayDays: 1 }, "5002": { minRunwayDays: 1 } },
      },
    });
    expect(ds.map((d) => d.message)).toEqual([
      expect.stringMatching(/^Project 5001 has a balance of 1,000\.00/),
    ]);
    // One balance and one consumption query per project, shared by both policies.
    expect(h.emu.requests.filter((r) => r.path === "/bill/graphql")).toHaveLength(4);
  });

  it("fails closed when billing is unreachable, and only advises when configured so", async () => {
    const down = {
      COSTGATE_BILLING_URL: "http://127.0.0.1:1",
      COSTGATE_BILLING_TOKEN: "canary-billing-token",
    };
    const closed = await run(
      { "min-balance": { enforcementLevel: "mandatory", projectId: 5001, minBalance: 1 } },
      app,
      down,
    );
    expect(closed.map((d) => [d.policyName, d.enforcementLevel])).toEqual([
      ["min-balance", "mandatory"],
      ["billing-available", "advisory"],
    ]);
    expect(closed[0]?.message).toMatch(
      /Project 5001 could not be checked because billing could not be read .*ECONNREFUSED/,
    );
    expect(JSON.stringify(closed)).not.toContain("canary-billing-token");
    h.pack?.close();
    const advise = await run(
      {
        "min-balance": {
          enforcementLevel: "mandatory",
          projectId: 5001,
          minBalance: 1,
          onBillingError: "advise",
        },
      },
      app,
      down,
    );
    expect(advise.map((d) => d.policyName)).toEqual(["billing-available"]);
  });

  it("prices the resources a preview creates and judges runway before and after", async () => {
    const rateCard = { flavors: { "m1.large": 5 }, volumeGbMonth: 36.5, floatingIpHour: 1 };
    const planned = [
      ...app,
      // Being created: computed outputs unknown.
      {
        type: "openstack:compute/instance:Instance",
        name: "web",
        props: { flavorName: "m1.large", accessIpV4: UNKNOWN, created: UNKNOWN },
      },
      {
        type: "openstack:blockstorage/volume:Volume",
        name: "data",
        props: { size: 100, attachments: UNKNOWN },
      },
      { type: "openstack:networking/floatingIp:FloatingIp", name: "ip", props: { address: UNKNOWN } },
      // Exists already: in the spend trend, not priced again.
      {
        type: "openstack:compute/instance:Instance",
        name: "old",
        props: { flavorName: "m1.large", accessIpV4: "10.0.0.5", created: "2026-01-01" },
      },
    ];
    // Before: 10 days at 100/day. After: +120 (instance) +120 (volume: 100 GB × 36.5 × 12 / 365) +24 (IP) = 364/day.
    const ds = await run(
      { "min-runway-days": { enforcementLevel: "mandatory", projectId: 5001, minRunwayDays: 5, rateCard } },
      planned,
    );
    expect(ds).toHaveLength(1);
    expect(ds[0]?.message).toMatch(
      /Project 5001's balance of 1,000\.00 is 80 % likely to last at least 2\.7 days at its forecast spend after a change adding 264\.00\/day; the policy requires 5\./,
    );
    expect(ds[0]?.message).toMatch(
      /This change adds 264\.00\/day for 3 new resources \(instance m1\.large, volume 100 GB, floating IP\)\./,
    );
    expect(ds[0]?.message).toMatch(
      /Before it: Project 5001's balance of 1,000\.00 is 80 % likely to last at least (9\.\d|10(\.0)?) days at its forecast spend/,
    );
  });
});
