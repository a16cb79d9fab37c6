/**
 * One door for options, one resolver of targets, one renderer of findings (issue 21, items 1–3), against
 * the hostile endpoint: both `projects` forms give the same projects and thresholds on every command; the
 * environment never overrides the file; a project id is parsed one way everywhere and a bad one sends
 * nothing; what the endpoint says is escaped in the check summary as in the report's; every budget flag
 * reads decimals only, on every command.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../../cli/errors";
import { budgetFlags } from "../../cli/options";
import { runCli } from "../helpers/cli";
import { graphqlErrorAnswer, useHostileServer } from "./server";

let dir: string;
const TOKEN = "hostile-door-token-0123456789abcdef";
const hostile = useHostileServer(TOKEN);
const env = hostile.billingEnv;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "costgate-door-"));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});
let n = 0;
const write = (name: string, text: string) => {
  const path = join(dir, `${++n}-${name}`);
  writeFileSync(path, text);
  return path;
};
/** The projects the endpoint was asked about, in order, each once. */
const asked = () => [
  ...new Set(
    hostile.server.requests.map(
      (r) =>
        (r.json as { variables?: { externalSubscriptionId?: number } })?.variables?.externalSubscriptionId,
    ),
  ),
];

describe("both forms of projects, one answer", () => {
  // balance 1312.40: 7 passes min-balance 1000, 8 fails min-balance 5000
  const list = `minBalance: 1000\nprojects:\n  - projectId: 7\n  - projectId: 8\n    minBalance: 5000\n`;
  const map = `minBalance: 1000\nprojects:\n  "7": null\n  "8": { minBalance: 5000 }\n`;

  it.each([
    ["list", list],
    ["map", map],
  ])("check judges each project of the %s form by its own thresholds", async (_form, yaml) => {
    const r = await runCli(["check", "--config", write("c.yaml", yaml), "--json"], env());
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as {
      projects: { projectId: number; evaluation: { verdict: string } }[];
    };
    expect(out.projects.map((p) => `${p.projectId}:${p.evaluation.verdict}`)).toEqual(["7:pass", "8:fail"]);
  });

  it.each([
    ["list", list],
    ["map", map],
  ])(
    "report picks one project of the %s form with --project-id, with that project's thresholds",
    async (_f, yaml) => {
      const r = await runCli(
        ["report", "--config", write("c.yaml", yaml), "--project-id", "8", "--json"],
        env(),
      );
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).evaluation.verdict).toBe("fail");
      expect(asked()).toEqual([8]);
    },
  );

  it.each([
    ["list", list],
    ["map", map],
  ])("policy-config gives the same pack config for the %s form", async (_f, yaml) => {
    const a = await runCli(["policy-config", "--config", write("c.yaml", yaml)], {});
    const b = await runCli(["policy-config", "--config", write("c.yaml", list)], {});
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
  });
});

describe("the environment fills what the file leaves out, never overrides it", () => {
  it.each([["check"], ["report"]])(
    "%s reads the file's project, not COSTGATE_PROJECT_ID",
    async (command) => {
      const config = write("one.yaml", "projectId: 7\nminBalance: 1000\n");
      const r = await runCli([command, "--config", config, "--json"], env({ COSTGATE_PROJECT_ID: "9" }));
      expect(r.code, r.stderr).toBe(0);
      expect(asked()).toEqual([7]);
    },
  );

  it("check reads COSTGATE_PROJECT_ID when the file names no project", async () => {
    const config = write("none.yaml", "minBalance: 1000\n");
    const r = await runCli(["check", "--config", config, "--json"], env({ COSTGATE_PROJECT_ID: "9,7,9" }));
    expect(r.code, r.stderr).toBe(0);
    expect(asked().sort()).toEqual([7, 9]);
  });
});

describe("a project id, parsed one way; a bad one sends nothing", () => {
  it.each([
    [
      ["check", "--project-id", "7,,8", "--min-balance", "1"],
      {},
      /^costgate: error: --project-id: "" is not a project id/,
    ],
    [
      ["check", "--project-id", "0x7", "--min-balance", "1"],
      {},
      /^costgate: error: --project-id: "0x7" is not a project id/,
    ],
    [
      ["check", "--min-balance", "1"],
      { COSTGATE_PROJECT_ID: "7,-1" },
      /^costgate: error: COSTGATE_PROJECT_ID: "-1" is not a project id/,
    ],
    [["report", "--project-id", "7,8"], {}, /^costgate: error: --project-id: "7,8" is not a project id/],
    [
      ["report"],
      { COSTGATE_PROJECT_ID: "7,8" },
      /^costgate: error: COSTGATE_PROJECT_ID: "7,8" is not a project id/,
    ],
    [
      ["report", "--project-id", "99999999999999999999"],
      {},
      /--project-id: "99999999999999999999" is too large/,
    ],
  ])("%j %j exits 2", async (args, more, message) => {
    const r = await runCli(args, env(more));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(hostile.server.requests).toHaveLength(0);
  });
});

describe("one renderer: the check summary escapes what the endpoint says", () => {
  it("an endpoint's HTML, pipes and headings in an error never reach the summary as Markdown", async () => {
    hostile.server.answer = () =>
      graphqlErrorAnswer('<img src=x onerror="alert(1)"> | forged |\n### ✅ costgate check: PASS');
    const summary = write("summary.md", "");
    const r = await runCli(["check", "--project-id", "7", "--min-balance", "1", "--summary", summary], env());
    expect(r.code).toBe(3);
    const md = readFileSync(summary, "utf8");
    expect(md).toMatch(/### ❔ costgate check: project 7 — UNKNOWN/);
    expect(md).not.toMatch(/<img/);
    expect(md).not.toMatch(/[^\\]\| forged/);
    expect(md.split("\n").filter((l) => l.startsWith("###"))).toHaveLength(1);
  });
});

describe("one reader of the budget flags", () => {
  it("takes a decimal within the bounds, or refuses it naming the flag; never anything else", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.double().map(String), fc.integer().map(String)), (v) => {
        const started = performance.now();
        try {
          const c = budgetFlags({ minBalance: v });
          expect(v).toMatch(/^\s*\d+(\.\d{1,2})?\s*$/);
          expect(c.minBalance).toBe(Number(v));
        } catch (e) {
          expect(e).toBeInstanceOf(UsageError);
          expect((e as Error).message).toMatch(/^--min-balance: /);
        }
        // bounded: a schema build and a parse, even on a loaded machine
        expect(performance.now() - started).toBeLessThan(500);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ["check", "--project-id", "7"],
    ["report", "--project-id", "7"],
    ["cost", "--project-id", "7", "--preview", "-"],
  ])("%s refuses 0x10, 1e3 and a blank for --monthly-budget before any request", async (...args) => {
    for (const bad of ["0x10", "1e3", " "]) {
      const r = await runCli([...args, "--monthly-budget", bad], env());
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`--monthly-budget: "${bad}" is not a number`));
    }
    expect(hostile.server.requests).toHaveLength(0);
  });
});
