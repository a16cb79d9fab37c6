/**
 * The policies called directly, as the SDK calls validateStack, starting from a passing config and
 * changing one field per case.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { priceResource } from "../../policies/budget/cost";
import { resetRun } from "../../policies/budget/data";
import { budgetPolicies, minBalance, minRunwayDays, monthlyBudget } from "../../policies/budget/policies";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  process.env.COSTGATE_BILLING_URL = emu.billingUrl;
  process.env.COSTGATE_BILLING_TOKEN = emu.seed.billing.token;
});
afterAll(async () => {
  delete process.env.COSTGATE_BILLING_URL;
  delete process.env.COSTGATE_BILLING_TOKEN;
  await emu?.close();
});
beforeEach(() => resetRun());

async function validate(
  policy: (typeof budgetPolicies)[number],
  config: Record<string, unknown>,
): Promise<string[]> {
  const messages: string[] = [];
  const args = {
    resources: [],
    getConfig: () => config,
    notApplicable: (reason?: string) => {
      throw Object.assign(new Error(reason), { notApplicable: true });
    },
  };
  try {
    await (policy as { validateStack: (a: unknown, r: (m: string) => void) => Promise<void> }).validateStack(
      args,
      (m) => messages.push(m),
    );
  } catch (e) {
    if ((e as { notApplicable?: boolean }).notApplicable) return ["<not applicable>"];
    throw e;
  }
  return messages;
}

describe("each policy", () => {
  it("has a kebab-case name, one-sentence description, remediation steps and config schema", () => {
    for (const p of budgetPolicies) {
      expect(p.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(p.description).toMatch(/^[A-Z][^.]*\.$/);
      expect(p.remediationSteps).toBeTruthy();
      expect(p.configSchema?.properties).toHaveProperty("projectId");
    }
  });

  const happy = { projectId: 4242, minBalance: 1 };
  it("passes the happy path", async () => {
    expect(await validate(minBalance, happy)).toEqual([]);
  });
  it("fails below the floor", async () => {
    expect(await validate(minBalance, { ...happy, minBalance: 1e9 })).toEqual([
      expect.stringMatching(
        /^Project 4242 has a balance of [\d,.]+; the policy requires at least 1,000,000,000\.00\.$/,
      ),
    ]);
  });
  it("reports a threshold without a project as misconfigured", async () => {
    expect(await validate(minBalance, { minBalance: 5 })).toEqual([
      expect.stringMatching(
        /^The policy is not configured: projectId: missing; .* and set minBalance in the policy pack config/,
      ),
    ]);
  });
  it("is not green with nothing configured: a violation naming what to set", async () => {
    expect(await validate(monthlyBudget, {})).toEqual([
      expect.stringMatching(
        /^The policy is not configured: projectId: missing; .* and set monthlyBudget .* or set this policy's enforcementLevel to "disabled"\.$/,
      ),
    ]);
  });
  it("reports a rule whose threshold is not set for a project", async () => {
    expect(await validate(minRunwayDays, { projectId: 4242 })).toEqual([
      expect.stringMatching(
        /^The min-runway-days policy is not configured for project 4242: set minRunwayDays in the policy pack config .*enforcementLevel to "disabled"/,
      ),
    ]);
  });
  it("fails the monthly budget with actual and forecast figures", async () => {
    const [m] = await validate(monthlyBudget, { projectId: 4242, monthlyBudget: 1 });
    expect(m).toMatch(
      /^Project 4242 spent [\d,.]+ this month and is 80 % likely to spend at most [\d,.]+ by \d+ \w+; the monthly budget is 1\.00( \(low confidence: [^)]+\))?\.$/,
    );
  });
});

describe("the rate card", () => {
  it("reports a rate card that is not valid as a violation naming the field, before reading billing", async () => {
    const ms = await validate(monthlyBudget, {
      projectId: 4242,
      monthlyBudget: 1_000_000,
      rateCard: { flavors: { "m1.small": -1 } },
    });
    expect(ms).toEqual([
      "The monthly-budget policy's rate card is not valid: rateCard.flavors.m1.small: must be 0 or more. Fix it in the policy config.",
    ]);
  });

  it.each([
    [
      { type: "openstack:compute/instance:Instance", props: { flavorName: "m1.small" } },
      { perDay: 24, what: "instance m1.small" },
    ],
    [
      { type: "openstack:compute/instance:Instance", props: { flavorName: "x" } },
      { reason: "the rate card has no price for flavor x" },
    ],
    [
      { type: "openstack:blockstorage/volume:Volume", props: { size: 10, volumeType: "ssd" } },
      { perDay: (10 * 73 * 12) / 365, what: "volume 10 GB" },
    ],
    [
      { type: "openstack:networking/floatingIp:FloatingIp", props: {} },
      { perDay: 2.4, what: "floating IP" },
    ],
    [{ type: "aws:s3/bucket:Bucket", props: {} }, undefined],
  ])("%o", (r, want) => {
    const card = {
      flavors: { "m1.small": 1 },
      volumeGbMonth: 1,
      volumeTypes: { ssd: 73 },
      floatingIpHour: 0.1,
    };
    const got = priceResource(r, card);
    if (want && "perDay" in want && got && "perDay" in got) {
      expect(got.perDay).toBeCloseTo(want.perDay, 6);
      expect(got.what).toBe(want.what);
    } else {
      expect(got).toEqual(want);
    }
  });
});

describe("project lists", () => {
  it.each([
    [{ projects: [4242, "1001"], minBalance: 1 }, [4242, 1001]],
    [{ projects: [{ projectId: 4242, minBalance: 1 }] }, [4242]],
    [{ projects: { "4242": { minBalance: 1 } } }, [4242]],
  ])("%j", async (config, ids) => {
    const { projectTargets } = await import("../../policies/budget/config");
    expect(projectTargets(config).map((t) => t.projectId)).toEqual(ids);
    expect(projectTargets(config)[0]?.config.minBalance).toBe(1);
  });
});
