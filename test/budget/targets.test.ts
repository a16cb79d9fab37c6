import { describe, expect, it } from "vitest";
import { parseProjectIds } from "../../provider/billing/project-id";
import { parseCostgateConfig } from "../../provider/budget/config-file";
import { resolveTargets } from "../../provider/budget/targets";

describe("resolveTargets", () => {
  const file = parseCostgateConfig({
    minBalance: 100,
    levels: { "daily-spike": "disabled" },
    projects: [{ projectId: 7, minBalance: 500, levels: { "min-balance": "advisory" } }, { projectId: 8 }],
  });

  it("gives the file's projects, their own thresholds over the file's, the overrides over both", () => {
    expect(resolveTargets({ file, overrides: { monthlyBudget: 4000 }, env: {} })).toEqual({
      product: 1,
      projectsFrom: "file",
      targets: [
        {
          projectId: 7,
          config: {
            minBalance: 500,
            monthlyBudget: 4000,
            levels: { "daily-spike": "disabled", "min-balance": "advisory" },
          },
        },
        {
          projectId: 8,
          config: { minBalance: 100, monthlyBudget: 4000, levels: { "daily-spike": "disabled" } },
        },
      ],
    });
  });

  it("reads the map form as the list", () => {
    const map = parseCostgateConfig({ minBalance: 100, projects: { "7": { minBalance: 500 }, "8": null } });
    expect(resolveTargets({ file: map, env: {} }).targets).toEqual([
      { projectId: 7, config: { minBalance: 500 } },
      { projectId: 8, config: { minBalance: 100 } },
    ]);
  });

  it("explicit projects replace the file's list and keep their entries; the environment never overrides the file", () => {
    const env = { COSTGATE_PROJECT_ID: "9", COSTGATE_PRODUCT: "vmware" };
    expect(resolveTargets({ file, projectIds: [8, 9], env }).targets).toEqual([
      { projectId: 8, config: { minBalance: 100, levels: { "daily-spike": "disabled" } } },
      { projectId: 9, config: { minBalance: 100, levels: { "daily-spike": "disabled" } } },
    ]);
    expect(resolveTargets({ file, env }).projectsFrom).toBe("file");
    expect(resolveTargets({ file: { product: "object-storage" }, env }).product).toBe(2);
    expect(resolveTargets({ file: {}, env })).toMatchObject({ product: 3, projectsFrom: "env" });
    expect(resolveTargets({ product: "1", env }).product).toBe(1);
    expect(resolveTargets({ env: {} })).toEqual({ product: 1, targets: [], projectsFrom: "none" });
  });

  it("names the setting of a bad project id or product", () => {
    expect(() => resolveTargets({ env: { COSTGATE_PROJECT_ID: "7,-1" } })).toThrowError(
      /^COSTGATE_PROJECT_ID: "-1" is not a project id/,
    );
    expect(() => resolveTargets({ product: "bogus", names: { product: "--product" }, env: {} })).toThrowError(
      /^--product: "bogus" is not a product/,
    );
    expect(() => resolveTargets({ env: { COSTGATE_PRODUCT: "x" } })).toThrowError(/^COSTGATE_PRODUCT: /);
  });

  it("parses a comma list of ids once each, in order", () => {
    expect(parseProjectIds(" 7, 8,7", "--project-id")).toEqual([7, 8]);
    expect(() => parseProjectIds("7,", "--project-id")).toThrowError(/^--project-id: "" is not a project id/);
  });
});
