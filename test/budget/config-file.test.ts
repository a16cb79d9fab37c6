/**
 * The one configuration file of check, report and the pack: validation naming the field, projects
 * (environment filling what the file leaves out), the pack config it becomes, and the shipped schema.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  costgateConfigJsonSchema,
  parseCostgateConfig,
  policyPackConfig,
  projectsOf,
} from "../../provider/budget/config-file";

describe("parseCostgateConfig", () => {
  it.each([
    [{ minBalance: -1 }, /^costgate.yaml: minBalance: must be 0 or more/],
    [{ monthlyBudgt: 5 }, /^costgate.yaml: monthlyBudgt: unknown field; check the spelling/],
    [
      { projects: [{ projectId: 4242, minBalance: "x" }] },
      /^costgate.yaml: projects.0.minBalance: must be a finite number/,
    ],
    [{ projects: [] }, /projects: lists no project/],
    [{ projectId: 1, projects: [{ projectId: 2 }] }, /give projectId or projects, not both/],
    [
      { levels: { "daily-spike": "loud" } },
      /levels.daily-spike: must be one of mandatory, advisory, disabled/,
    ],
    [[], /must be an object/],
  ])("refuses %j", (value, message) => {
    expect(() => parseCostgateConfig(value, "costgate.yaml")).toThrowError(message);
  });
});

describe("projectsOf", () => {
  it("takes the file's projects with their overrides over the shared thresholds", () => {
    const c = parseCostgateConfig({
      minBalance: 10,
      projects: [{ projectId: 1 }, { projectId: 2, minBalance: 20 }],
    });
    expect(projectsOf(c, {})).toEqual([
      { projectId: 1, config: { minBalance: 10 } },
      { projectId: 2, config: { minBalance: 20 } },
    ]);
  });
  it("fills the project from COSTGATE_PROJECT_ID only when the file names none", () => {
    expect(projectsOf({ minBalance: 1 }, { COSTGATE_PROJECT_ID: "7,8" }).map((p) => p.projectId)).toEqual([
      7, 8,
    ]);
    expect(
      projectsOf({ projectId: 5, minBalance: 1 }, { COSTGATE_PROJECT_ID: "7" }).map((p) => p.projectId),
    ).toEqual([5]);
    expect(() => projectsOf({}, { COSTGATE_PROJECT_ID: "-1" })).toThrowError(
      /^COSTGATE_PROJECT_ID: "-1" is not a project id/,
    );
  });
});

describe("policyPackConfig", () => {
  it("gives each policy its own thresholds and disables what the file does not ask for", () => {
    const out = policyPackConfig({ projectId: 4242, product: "openstack", minBalance: 5000, spikeFactor: 3 });
    expect(out).toEqual({
      "min-balance": {
        enforcementLevel: "mandatory",
        product: "openstack",
        projectId: 4242,
        minBalance: 5000,
      },
      "monthly-budget": { enforcementLevel: "disabled" },
      "min-runway-days": { enforcementLevel: "disabled" },
      "daily-spike": { enforcementLevel: "advisory", product: "openstack", projectId: 4242, spikeFactor: 3 },
      "billing-available": { enforcementLevel: "advisory" },
    });
  });
  it("keeps per-project thresholds under projects", () => {
    const out = policyPackConfig({
      monthlyBudget: 100,
      projects: [{ projectId: 1 }, { projectId: 2, monthlyBudget: 50 }],
    });
    expect(out["monthly-budget"]).toEqual({
      enforcementLevel: "mandatory",
      projects: { "1": { monthlyBudget: 100 }, "2": { monthlyBudget: 50 } },
    });
  });
  it("refuses a file with no threshold: that pack would pass everything", () => {
    expect(() => policyPackConfig({ projectId: 1, spikeFactor: 3 })).toThrowError(/^thresholds: none is set/);
    expect(() => policyPackConfig({ minBalance: 1, levels: { "min-balance": "disabled" } })).toThrowError(
      /none is set/,
    );
  });
});

describe("the shipped JSON Schema", () => {
  it("is the one the zod schema gives (npm run build writes it)", () => {
    const shipped = JSON.parse(
      readFileSync(resolve(__dirname, "../../schema/costgate-config.schema.json"), "utf8"),
    );
    expect(shipped).toEqual(costgateConfigJsonSchema());
    expect(Object.keys(shipped.properties)).toEqual(
      expect.arrayContaining([
        "projectId",
        "projects",
        "product",
        "minBalance",
        "monthlyBudget",
        "minRunwayDays",
        "levels",
        "rateCard",
      ]),
    );
  });
});
