/**
 * The CI example works when copied: examples/ci is laid out as a user's repository (costgate.yaml at
 * its root, the workflow in .github/workflows). Its job's shell steps run here exactly as written, with
 * bash, in a copy of that folder whose node_modules holds costgate, against the emulator; the Pulumi
 * step (pulumi/actions) is stood in for by the pack run over the analyzer protocol with the
 * policy-config.json the previous step wrote, as `pulumi preview --policy-pack-config` would run it.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Emulator, startEmulator } from "../../emulator";
import { type PolicyPackProcess, startPolicyPack } from "../helpers/analyzer";
import { bash } from "../helpers/shell";

const ROOT = resolve(__dirname, "../..");
const EXAMPLE = join(ROOT, "examples/ci");
// an instance resized m1.small → m1.large and a volume grown 10 → 20 GB, both replaced
const PREVIEW = join(ROOT, "test/fixtures/preview/replacement-steps.json");

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
  if?: string;
}
const workflow = parse(readFileSync(join(EXAMPLE, ".github/workflows/budget-gate.yml"), "utf8")) as {
  jobs: { preview: { env: Record<string, string>; steps: Step[] } };
};
const job = workflow.jobs.preview;

let emu: Emulator;
let repo: string;
let pack: PolicyPackProcess | undefined;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  // a project whose balance is below the example's minBalance (5000), spending 100 a day
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const daily = Array.from({ length: 30 }, (_, i) => ({
    day: day(-30 + i),
    totalAmount: 100,
    totalBonuses: 0,
  }));
  emu.setProject({ id: 7001, products: { 1: { balance: 3000, bonuses: 0, daily } } });
  repo = mkdtempSync(join(tmpdir(), "costgate-ci-example-"));
  cpSync(EXAMPLE, repo, { recursive: true });
  // what `npm ci` leaves in the user's repository: costgate in node_modules, its command in .bin
  mkdirSync(join(repo, "node_modules/.bin"), { recursive: true });
  symlinkSync(ROOT, join(repo, "node_modules/costgate"));
  symlinkSync(join(ROOT, "bin/costgate"), join(repo, "node_modules/.bin/costgate"));
});
afterAll(async () => {
  await emu?.close();
  if (repo) rmSync(repo, { recursive: true, force: true });
});
afterEach(() => {
  pack?.close();
  pack = undefined;
});

/** The job's env with the repository's vars and secrets filled in: the emulator's. */
function jobEnv(projectId: number, summary: string): Record<string, string> {
  const values: Record<string, string> = {
    "vars.OS_AUTH_URL": emu.identityUrl,
    "secrets.OS_APPLICATION_CREDENTIAL_ID": emu.seed.applicationCredentials.demo.id,
    "secrets.OS_APPLICATION_CREDENTIAL_SECRET": emu.seed.applicationCredentials.demo.secret,
    "vars.COSTGATE_BILLING_URL": emu.billingUrl,
    "secrets.COSTGATE_BILLING_TOKEN": emu.seed.billing.token,
    "vars.COSTGATE_PROJECT_ID": String(projectId),
    "secrets.PULUMI_ACCESS_TOKEN": "unused",
  };
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(job.env)) {
    env[k] = v.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`the example uses ${name}, which this test does not fill`);
      return value;
    });
  }
  return { ...env, GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary, CI: "true" };
}

function run(script: string, env: Record<string, string>) {
  return bash(script, { env, cwd: repo, home: repo });
}

/** runJob runs every step as Actions would (stopping at a failure, except `if: always()` steps). */
async function runJob(projectId: number) {
  const summary = join(repo, `summary-${projectId}.md`);
  writeFileSync(summary, "");
  const env = jobEnv(projectId, summary);
  const results: { name: string; code: number; stdout: string; stderr: string }[] = [];
  let failed = false;
  for (const step of job.steps) {
    if (failed && step.if !== "always()") continue;
    if (step.run === "npm ci" || step.uses?.startsWith("actions/")) continue; // done above: node_modules
    let r: { code: number; stdout: string; stderr: string };
    if (step.run?.startsWith("pulumi preview --json")) {
      // the Pulumi CLI is not here: a preview digest built to Pulumi's PreviewDigest stands in for it
      cpSync(PREVIEW, join(repo, step.run.split("> ").pop() ?? "preview.json"));
      r = { code: 0, stdout: "", stderr: "" };
    } else if (step.run) {
      r = await run(step.run, env);
    } else if (step.uses?.startsWith("pulumi/actions")) {
      // pulumi preview --policy-pack <policyPacks> --policy-pack-config <policyPackConfigs>
      const config = JSON.parse(readFileSync(join(repo, step.with?.["policyPackConfigs"] ?? ""), "utf8"));
      pack = await startPolicyPack(env, join(repo, step.with?.["policyPacks"] ?? ""));
      await pack.configure(config);
      const ds = await pack.analyzeStack([{ type: "pulumi:pulumi:Stack", name: "app-prod", props: {} }]);
      const mandatory = ds.filter((d) => d.enforcementLevel === "mandatory");
      r = { code: mandatory.length ? 1 : 0, stdout: JSON.stringify(ds), stderr: "" };
      pack.close();
      pack = undefined;
    } else {
      throw new Error(`a step this test does not know: ${JSON.stringify(step)}`);
    }
    results.push({ name: step.name ?? step.run ?? step.uses ?? "?", ...r });
    if (r.code !== 0) failed = true;
  }
  return { results, summary: readFileSync(summary, "utf8") };
}

describe("examples/ci, run as written", () => {
  it("passes for a project that can afford it: check, policy config, the pack, the report", async () => {
    const { results, summary } = await runJob(4242);
    expect(results.map((r) => [r.name, r.code])).toEqual([
      ["Budget check (fails fast, with figures and annotations)", 0],
      ["Policy pack config from the same thresholds", 0],
      ["Preview with the budget gate", 0],
      ["The preview as JSON, every step with its old and new inputs", 0],
      ["What this change costs (creates to deletes), in the pull request's summary", 0],
      ["Budget report for the pull request", 0],
    ]);
    // m1.small → m1.large: (3.6 − 0.9) × 730 = 1,971.00; 10 → 20 GB at 8.5: 85.00
    expect(summary).toMatch(
      /### ✅ costgate cost: \+2,056\.00 a month \(EUR\) — PASS: no mandatory gate failed/,
    );
    expect(summary).toContain(
      "| `web` | openstack:compute/instance:Instance | replace | 657.00 | 2,628.00 | +1,971.00 |",
    );
    expect(summary).toMatch(
      /\| `monthly-budget` \| mandatory \| PASS \| .*after a change adding 67\.59\/day/,
    );
    const config = JSON.parse(readFileSync(join(repo, "policy-config.json"), "utf8"));
    // the thresholds of costgate.yaml, the project left to COSTGATE_PROJECT_ID
    expect(config["min-balance"]).toEqual({ enforcementLevel: "mandatory", minBalance: 5000 });
    expect(config["monthly-budget"]).toMatchObject({ enforcementLevel: "mandatory", monthlyBudget: 90000 });
    expect(config["monthly-budget"].rateCard.flavors["m1.large"]).toBe(3.6);
    expect(summary).toMatch(/### ✅ costgate check: project 4242 — PASS/);
    expect(summary).toMatch(/### ✅ costgate: Project 4242 \(openstack\) — PASS/);
  });

  it("fails a project below its floor: the check fails (annotated), the report still runs", async () => {
    const { results, summary } = await runJob(7001);
    expect(results.map((r) => [r.name, r.code])).toEqual([
      ["Budget check (fails fast, with figures and annotations)", 1],
      ["Budget report for the pull request", 0],
    ]);
    expect(results[0]?.stdout).toMatch(
      /^::error title=costgate min-balance \(project 7001\)::Project 7001 has a balance of 3,000\.00; the policy requires at least 5,000\.00\.$/m,
    );
    expect(summary).toMatch(/### ❌ costgate check: project 7001 — FAIL/);
    expect(summary).toMatch(/### ❌ costgate: Project 7001/);
  });

  it("the pack alone, with the same config, fails that project too", async () => {
    const summary = join(repo, "summary-pack.md");
    const r = await run(
      "npx costgate policy-config --config costgate.yaml > policy-config.json",
      jobEnv(7001, summary),
    );
    expect(r.code).toBe(0);
    const config = JSON.parse(readFileSync(join(repo, "policy-config.json"), "utf8"));
    pack = await startPolicyPack(jobEnv(7001, summary), join(repo, "node_modules/costgate/policies/budget"));
    await pack.configure(config);
    const ds = await pack.analyzeStack([{ type: "pulumi:pulumi:Stack", name: "app-prod", props: {} }]);
    expect(ds.filter((d) => d.enforcementLevel === "mandatory").map((d) => d.policyName)).toContain(
      "min-balance",
    );
  });
});
