/**
 * The one configuration file of check, report and the pack: validation naming the field, projects
 * (environment filling what the file leaves out), the pack config it becomes, and the shipped schema.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { budgetConfigJsonSchema } from "../../provider/budget/config";
import {
  costgateConfigJsonSchema,
  parseCostgateConfig,
  policyPackConfig,
  projectsOf,
  readCostgateConfig,
} from "../../provider/budget/config-file";

const BUDGET_FIELDS = Object.keys(budgetConfigJsonSchema().properties);

describe("parseCostgateConfig", () => {
  it.each([
    [{ minBalance: -1 }, /^costgate.yaml: minBalance: must be 0 or more/],
    [{ monthlyBudgt: 5 }, /^costgate.yaml: monthlyBudgt: unknown field; check the spelling/],
    [
      { projects: [{ projectId: 4242, minBalance: "x" }] },
      /^costgate.yaml: projects\[0\].minBalance: expected a number of currency units, e.g. 5000; got "x"$/,
    ],
    [{ projects: [] }, /projects: lists no project/],
    [{ projectId: 1, projects: [{ projectId: 2 }] }, /give projectId or projects, not both/],
    [
      { levels: { "daily-spike": "loud" } },
      /levels.daily-spike: expected mandatory, advisory or disabled; got "loud"$/,
    ],
    [[], /^costgate.yaml: must be a mapping of fields, e.g. monthlyBudget: 45000; got an empty list$/],
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

describe("the config file's messages", () => {
  const dir = mkdtempSync(join(tmpdir(), "costgate-config-"));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const refusal = (path: string) => {
    try {
      readCostgateConfig(path);
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error("accepted");
  };

  it("takes projects as a map keyed by project id, as the pack does, and as a list", () => {
    const map = readCostgateConfig(
      file("map.yaml", 'monthlyBudget: 100\nprojects:\n  "4242": { minBalance: 5 }\n  "7":\n'),
    );
    // keys that are integers come in ascending order, as in any JavaScript object (and the pack)
    expect(projectsOf(map, {})).toEqual([
      { projectId: 7, config: { monthlyBudget: 100 } },
      { projectId: 4242, config: { monthlyBudget: 100, minBalance: 5 } },
    ]);

    const json = readCostgateConfig(file("map.json", '{"minBalance": 1, "projects": {"12": {}}}'));
    expect(json.projects).toEqual([{ projectId: 12 }]);
  });

  it.each([
    [
      "b.yaml",
      "projects:\n  - projectId: 4242\n    monthlyBudget: abc\n",
      'b.yaml:3: projects[0].monthlyBudget: expected a number of currency units, e.g. 45000; got "abc"',
    ],
    [
      "c.yaml",
      'projects:\n  "4242":\n    monthlyBudget: abc\n',
      'c.yaml:3: projects["4242"].monthlyBudget: expected a number of currency units, e.g. 45000; got "abc"',
    ],
    [
      "d.yaml",
      "projects:\n  __proto__:\n    monthlyBudget: 5\n",
      'd.yaml:2: projects["__proto__"]: the key must be a project id',
    ],
    [
      "e.json",
      '{\n "projects": {\n  "constructor": {"minBalance": 1}}}',
      'e.json:3: projects["constructor"]: the key must be a project id',
    ],
    ["f.yaml", "projects: 5\n", "f.yaml:1: projects: expected a list, e.g. projects: [{ projectId: 4242"],
    ["h.yaml", "minBalance: 5\nprojectId: 0\n", "h.yaml:2: projectId: must be 1 or more; got 0"],
    [
      "i.yaml",
      "projectId: 4\nmonthlyBudget: 100000000000000000000\n",
      "i.yaml:2: monthlyBudget: is more than 1,000,000,000,000",
    ],
    ["j.json", '{"projectId": 4,\n "minBalance": 100.555}', "j.json:2: minBalance: has more than 2 decimals"],
    [
      "k.yaml",
      "projectId: 4\nmonthlyBudget: 1\nbogus: 1\n",
      "k.yaml:3: bogus: unknown field; check the spelling",
    ],
    [
      "o.yaml",
      'projects: {"4242": {projectId: 5}}\n',
      'o.yaml:1: projects["4242"].projectId: the key already names the project',
    ],
    [
      "p.yaml",
      "projectId: 3\nminBalance: 1\nrateCard:\n  flavors:\n    m1: -1\n",
      "p.yaml:5: rateCard.flavors.m1: must be 0 or more; got -1",
    ],
    ["q.yaml", "projects: {}\n", "q.yaml:1: projects: lists no project; write a list"],
    ["r.json", '{"projectId": 4,\n "minBalance": 1,,\n}', "r.json:2:18: is not valid JSON"],
    ["s.json", '{"projectId": 4,\n "minBalance": tru}', "s.json:2:16: is not valid JSON"],
    [
      "t.json",
      '{"projectId": 4,\n "minBalance": 1,\n "minBalance": 2}',
      "t.json:3:2: is not valid JSON (a key given twice)",
    ],
    ["u.yaml", "projectId: 4\nminBalance: [1\n", "u.yaml:3:1: is not valid YAML"],
  ])("%s: names the line, the field and the fix", (name, text, message) => {
    const got = refusal(file(name, text));
    expect(got.startsWith(join(dir, message.split(":")[0] ?? ""))).toBe(true);
    expect(got).toContain(message.slice(message.indexOf(":")));
    expect(got).not.toMatch(/Invalid input|expected \w+, received|Unrecognized key/);
  });

  it("describes a long text instead of quoting it: a token pasted into a field stays out of the log", () => {
    const token = "gAAAAABl0ngSecretTokenValue1234567890abcdef";
    const m = (() => {
      try {
        parseCostgateConfig({ projectId: 1, minBalance: 1, currency: token }, "c.yaml");
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(m).toMatch(/^c\.yaml: currency: .*; got a text of 43 characters$/);
    expect(m).not.toContain("Secret");
  });

  it("never shows zod's own words, for any value of any field (property)", () => {
    const fields = [
      "projectId",
      "projects",
      "product",
      "currency",
      "rateCard",
      "levels",
      "$schema",
      ...BUDGET_FIELDS,
    ];
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue(), (field, v) => {
        const started = performance.now();
        try {
          parseCostgateConfig({ [field]: v }, "c.yaml");
          parseCostgateConfig({ projects: { "1": { [field]: v } } }, "c.yaml");
        } catch (e) {
          const m = (e as Error).message;
          expect(m).toMatch(/^c\.yaml: /);
          expect(m).not.toMatch(
            /Invalid (input|option|key|element|value)|Too (big|small)|received|Unrecognized/,
          );
        }
        expect(performance.now() - started).toBeLessThan(200);
      }),
      { numRuns: 400 },
    );
  });
});
