/**
 * The pack built from the rules, over Pulumi's analyzer protocol: its config schema carries every
 * setting of the config file, both `projects` forms work, the stack tag `costgate:projectId` names the
 * project, each policy has its rule's sentence, level, severity and remediation steps, and billing is
 * read once per project per run.
 */
import { describe, expect, it } from "vitest";
import { budgetRules } from "../../provider/budget";
import { costgateConfigJsonSchema } from "../../provider/budget/config-file";
import { app, dailySeries, packHarness } from "./pack-harness";

const series = () => dailySeries(30, () => 100);
const h = packHarness([
  { id: 6001, products: { 1: { balance: 1000, bonuses: 0, daily: series() } } },
  { id: 6002, products: { 1: { balance: 90000, bonuses: 0, daily: series() } } },
]);
const OFF = Object.fromEntries(budgetRules.map((r) => [r.name, { enforcementLevel: "disabled" }]));
const graphql = () => h.emu.requests.filter((r) => r.path === "/bill/graphql").length;

describe("the pack built from the rules", () => {
  it("carries every setting of the config file in its policies' config schemas", async () => {
    const pack = await h.start();
    const { policies } = await pack.info();
    const packKeys = new Set(policies.flatMap((p) => Object.keys(p.properties)));
    const fileKeys = Object.keys(costgateConfigJsonSchema()["properties"] as object);
    // $schema is an editor's hint; levels is each policy's enforcementLevel, one policy per rule
    const missing = fileKeys.filter((k) => k !== "$schema" && k !== "levels" && !packKeys.has(k));
    expect(missing).toEqual([]);
    expect(policies.map((p) => p.name)).toEqual([...budgetRules.map((r) => r.name), "billing-available"]);
    // the forecast gates take the model's settings, with the file's own values and words
    for (const name of ["monthly-budget", "min-runway-days"]) {
      const props = policies.find((p) => p.name === name)?.properties ?? {};
      expect(props["quantile"]).toMatchObject({ enum: ["p50", "p80", "p90"], default: "p80" });
      expect(props["forecastMethod"]).toMatchObject({ enum: ["model", "trailing-mean"] });
      expect(props).toHaveProperty("rateCard");
    }
    expect(JSON.stringify(policies)).not.toMatch(/at the trailing average/);
    // both forms of projects, a list of {projectId, ...} and a map keyed by project id, with the same
    // per-project settings as the file's
    type Forms = {
      anyOf?: { type?: string; items?: { properties?: object }; additionalProperties?: object }[];
    };
    const forms = (p: unknown) => [...new Set(((p as Forms).anyOf ?? []).map((f) => f.type))].sort();
    const fileProjects = (costgateConfigJsonSchema()["properties"] as Record<string, Forms>)["projects"];
    expect(forms(fileProjects)).toEqual(["array", "object"]);
    const listKeys = (p: Forms) =>
      Object.keys(p.anyOf?.find((f) => f.type === "array")?.items?.properties ?? {});
    for (const policy of policies) {
      const projects = policy.properties["projects"] as Forms;
      expect(forms(projects), policy.name).toEqual(["array", "object"]);
      expect(listKeys(projects).sort(), policy.name).toEqual(listKeys(fileProjects as Forms).sort());
    }
  });

  it("takes each policy's sentence, level, severity and remediation steps from its rule", async () => {
    const pack = await h.start();
    const { policies } = await pack.info();
    for (const rule of budgetRules) {
      const p = policies.find((x) => x.name === rule.name);
      expect(p?.enforcementLevel).toBe(rule.defaultLevel);
      expect(p?.remediationSteps).toContain(rule.remediationSteps);
      expect(p?.severity).toBeGreaterThan(0);
    }
    expect(policies.find((p) => p.name === "min-runway-days")).toBeTruthy();
    expect(policies.every((p) => p.remediationSteps.length > 20)).toBe(true);
  });

  it.each([
    [
      "a list",
      [
        { projectId: 6001, minBalance: 5000 },
        { projectId: 6002, minBalance: 5000 },
      ],
    ],
    ["a map keyed by project id", { "6001": { minBalance: 5000 }, "6002": { minBalance: 5000 } }],
    ["a list of ids", [6001, "6002"]],
  ])("takes projects as %s", async (_form, projects) => {
    const pack = await h.start();
    await pack.configure({
      ...OFF,
      "min-balance": { enforcementLevel: "mandatory", minBalance: 5000, projects },
    });
    const ds = await pack.analyzeStack(app);
    expect(ds.map((d) => d.message)).toEqual([
      expect.stringMatching(/^Project 6001 has a balance of 1,000\.00/),
    ]);
  });

  it("reports a bad threshold in a project by its field, not as a missing project", async () => {
    const pack = await h.start();
    await pack.configure({
      ...OFF,
      "min-balance": { enforcementLevel: "mandatory", projects: { "6001": { minBalance: -5 } } },
    });
    const [d] = await pack.analyzeStack(app);
    expect(d?.message).toMatch(
      /^The policy config is not valid: .*projects\["6001"\]\.minBalance: must be 0 or more/,
    );
  });

  it("takes the project from the stack tag costgate:projectId; the policy config wins over it", async () => {
    const pack = await h.start();
    await pack.configureStack({ "costgate:projectId": "6001" });
    await pack.configure({ ...OFF, "min-balance": { enforcementLevel: "mandatory", minBalance: 5000 } });
    expect((await pack.analyzeStack(app)).map((d) => d.message)).toEqual([
      expect.stringMatching(/^Project 6001 has a balance/),
    ]);
    // a comma list of projects
    await pack.configureStack({ "costgate:projectId": "6002,6001" });
    expect((await pack.analyzeStack(app)).map((d) => d.message)).toEqual([
      expect.stringMatching(/^Project 6001 has a balance/),
    ]);
    // the pack config names the project: the tag does not steer it elsewhere
    await pack.configure({
      ...OFF,
      "min-balance": { enforcementLevel: "mandatory", minBalance: 5000, projectId: 6002 },
    });
    expect(await pack.analyzeStack(app)).toEqual([]);
    // a tag that is not a project id is named
    await pack.configureStack({ "costgate:projectId": "my-project" });
    await pack.configure({ ...OFF, "min-balance": { enforcementLevel: "mandatory", minBalance: 5000 } });
    const [bad] = await pack.analyzeStack(app);
    expect(bad?.message).toMatch(/the stack tag costgate:projectId: "my-project" is not a project id/);
  });

  it("reads billing once per project per run, and again in the next run", async () => {
    const pack = await h.start();
    await pack.configure({
      "min-balance": { enforcementLevel: "mandatory", projectId: 6002, minBalance: 1 },
      "monthly-budget": { enforcementLevel: "mandatory", projectId: 6002, monthlyBudget: 1e9 },
      "min-runway-days": { enforcementLevel: "mandatory", projectId: 6002, minRunwayDays: 1 },
      "daily-spike": { enforcementLevel: "advisory", projectId: 6002 },
      "billing-available": { enforcementLevel: "advisory", projectId: 6002 },
    });
    const before = graphql();
    expect(await pack.analyzeStack(app)).toEqual([]);
    // one balance and one consumption query, shared by the five policies
    expect(graphql() - before).toBe(2);
    await pack.analyzeStack(app);
    expect(graphql() - before).toBe(4);
  });
});
