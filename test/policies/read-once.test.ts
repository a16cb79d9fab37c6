/**
 * The pack reads each project's billing once per run (issue 21, item 7): with the config
 * `costgate policy-config` writes, the first policy reads the longest window any enabled policy needs
 * and each policy takes the days its own settings ask for — counted on the emulator's side, through
 * Pulumi's analyzer protocol. And each policy judges the same days whichever policy read first.
 */
import { describe, expect, it } from "vitest";
import { parseCostgateConfig, policyPackConfig } from "../../provider/budget/config-file";
import { app, dailySeries, type PackConfig, packHarness } from "./pack-harness";

/** 200 days: 400.00 a day until 90 days ago, then 100.00 a day, then yesterday at `yesterday`. */
const series = (yesterday: number) => dailySeries(200, (i) => (i === 1 ? yesterday : i > 90 ? 400 : 100));
const h = packHarness([
  { id: 6001, products: { 1: { balance: 1000, bonuses: 0, daily: series(100) } } },
  { id: 6002, products: { 1: { balance: 100000, bonuses: 0, daily: series(500) } } },
]);

/** The billing queries the emulator received, by operation. */
function reads() {
  const ops = h.emu.requests
    .filter((r) => r.path === "/bill/graphql")
    .map((r) => String((r.body as { query?: string } | undefined)?.query ?? ""));
  return {
    balance: ops.filter((q) => q.includes("CostgateBalance")).length,
    consumption: ops.filter((q) => q.includes("CostgateConsumption")).length,
  };
}

/** A config file whose later policy (daily-spike) looks back further than the first (min-balance). */
const FILE = {
  projects: [
    { projectId: 6001, minBalance: 5000, monthlyBudget: 1000, trailingDays: 7 },
    { projectId: 6002, minBalance: 5000, spikeFactor: 2, spikeWindowDays: 150 },
  ],
};

describe("the pack reads billing once per project per run", () => {
  it("reads each project once with the longest window, though the later policy needs more", async () => {
    const config = policyPackConfig(parseCostgateConfig(FILE, "costgate.yaml"));
    expect(config["min-balance"]?.["historyDays"]).toBe(150);
    expect(config["daily-spike"]?.["historyDays"]).toBe(150);
    const pack = await h.start();
    await pack.configure(config as PackConfig);
    h.emu.requests.length = 0;
    const ds = await pack.analyzeStack(app);
    // one balance per project; the consumption of 151+ days in windows of 93: two per project, once
    expect(reads()).toEqual({ balance: 2, consumption: 4 });
    const messages = ds.map((d) => `${d.policyName}: ${d.message}`);
    expect(messages).toContainEqual(
      expect.stringMatching(/^min-balance: Project 6001 has a balance of 1,000\.00/),
    );
    expect(messages).toContainEqual(expect.stringMatching(/^daily-spike: .*6002/));
  });

  it("judges the days its own settings read: the same findings alone (its own window) as in the shared read", async () => {
    const config = policyPackConfig(parseCostgateConfig(FILE, "costgate.yaml"));
    // alone, each policy reads only what its own settings ask for (no historyDays)
    const only = (name: string) =>
      Object.fromEntries(
        Object.entries(config).map(([k, v]) => {
          const { historyDays: _, ...own } = v;
          return [k, k === name ? own : { enforcementLevel: "disabled" }];
        }),
      ) as PackConfig;
    const alone: string[] = [];
    for (const name of Object.keys(config)) {
      if (config[name]?.["enforcementLevel"] === "disabled") continue;
      const one = await h.start();
      await one.configure(only(name));
      alone.push(...(await one.analyzeStack(app)).map((d) => `${d.policyName}: ${d.message}`));
      one.close();
    }
    const pack = await h.start();
    await pack.configure(config as PackConfig);
    const together = (await pack.analyzeStack(app)).map((d) => `${d.policyName}: ${d.message}`);
    expect(together.sort()).toEqual(alone.sort());
    expect(together).toContainEqual(expect.stringMatching(/^monthly-budget: /));
  });

  it("without historyDays (a config written by hand), a later, longer window still reads again", async () => {
    const config = policyPackConfig(parseCostgateConfig(FILE, "costgate.yaml"));
    for (const entry of Object.values(config)) delete entry["historyDays"];
    const pack = await h.start();
    await pack.configure(config as PackConfig);
    h.emu.requests.length = 0;
    await pack.analyzeStack(app);
    // 6002 is read for min-balance (86 days, one window), then again for daily-spike's 150 days
    expect(reads().balance).toBe(3);
  });
});
