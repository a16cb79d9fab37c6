import { describe, expect, it } from "vitest";
import type { PreviewCost } from "../../provider/preview/cost";
import { judgeChange } from "../../provider/preview/gates";

const cost = (before: number, after: number, unpriced = 0): PreviewCost => ({
  currency: null,
  totals: { monthlyBefore: before, monthlyAfter: after, monthlyDelta: after - before },
  resources: [],
  unpriced: Array.from({ length: unpriced }, (_, i) => ({
    urn: `urn:pulumi:dev::p::t::vm-${i}`,
    type: "openstack:compute/instance:Instance",
    op: "create",
    reason: "no price",
  })) as PreviewCost["unpriced"],
  ignored: 0,
});

describe("judgeChange: the gates of cost, decided in the library", () => {
  it("returns findings shaped like the budget rules', JSON-safe", () => {
    const { findings, verdict } = judgeChange(cost(0, 100), {
      maxMonthlyIncrease: 50,
      maxIncreasePercent: 10,
    });
    expect(verdict).toBe("fail");
    expect(findings.map((f) => Object.keys(f).sort())).toEqual([
      ["figures", "level", "message", "rule", "status"],
      ["figures", "level", "message", "rule", "status"],
    ]);
    expect(findings[1]).toMatchObject({
      rule: "max-increase-percent",
      status: "fail",
      figures: { increasePercent: null },
    });
    expect(JSON.parse(JSON.stringify(findings))).toEqual(findings);
  });

  it("an unpriced resource warns, and fails only with failOnUnpriced; no gate is no verdict", () => {
    expect(judgeChange(cost(10, 10, 2), {})).toMatchObject({
      verdict: "none",
      findings: [{ rule: "unpriced", level: "advisory", status: "fail" }],
    });
    expect(judgeChange(cost(10, 10, 2), { failOnUnpriced: true }).verdict).toBe("fail");
    expect(judgeChange(cost(10, 10), { failOnUnpriced: true }).verdict).toBe("pass");
    expect(judgeChange(cost(10, 20), { maxMonthlyIncrease: 10 }).verdict).toBe("pass");
  });
});
