/**
 * No path to green without a judgement, and one verdict everywhere. For each situation — one rule judged
 * (pass, fail), only balance rules in an as-of replay, no threshold, every rule disabled, only advisory
 * rules — every output is read and must give the same verdict: `costgate check` (text, --json top and per
 * project, the step summary, GitHub annotations, exit code), `costgate report` (--json top and
 * evaluation, terminal, --markdown, --html, --summary, --gate's exit code) and the policy pack.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { addDays, isoDay } from "../../provider/billing/periods";
import { startPolicyPack } from "../helpers/analyzer";
import { runCli } from "../helpers/cli";

type Verdict = "pass" | "fail" | "none";

const LIVE = 9101; // 90 days of about 100.00 a day, a balance of 5,000.00
const YOUNG = 9102; // two days of charges: daily-spike cannot be judged
const today = isoDay(new Date());
const asOf = addDays(today, -5);

let emu: Emulator;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  const daily = Array.from({ length: 90 }, (_, i) => ({
    day: addDays(today, -i),
    totalAmount: 100 + (i % 7) * 5,
    totalBonuses: 0,
  }));
  emu.setProject({ id: LIVE, products: { 1: { balance: 5000, bonuses: 0, daily } } });
  emu.setProject({
    id: YOUNG,
    products: {
      1: {
        balance: 5000,
        bonuses: 0,
        daily: [-1, 0].map((i) => ({ day: addDays(today, i), totalAmount: 50, totalBonuses: 0 })),
      },
    },
  });
  env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
  dir = mkdtempSync(join(tmpdir(), "costgate-verdicts-"));
});
afterAll(async () => {
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const WORD: Record<string, Verdict> = { PASS: "pass", FAIL: "fail", "NO VERDICT": "none" };
const ICON: Record<string, Verdict> = { "✅": "pass", "❌": "fail", "➖": "none" };
const EXIT: Record<Verdict, number> = { pass: 0, fail: 1, none: 2 };
let n = 0;
const file = (name: string) => join(dir, `${++n}-${name}`);

/** checkVerdicts runs `costgate check` as text (under GitHub Actions) and as --json, and reads every verdict. */
async function checkVerdicts(flags: string[]) {
  const summary = file("check-summary.md");
  writeFileSync(summary, "");
  const gh = { ...env, GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary };
  const text = await runCli(["check", "--project-id", String(LIVE), ...flags], gh);
  const json = await runCli(["check", "--project-id", String(LIVE), ...flags, "--json"], env);
  const out = JSON.parse(json.stdout);
  const md = readFileSync(summary, "utf8");
  const annotations = text.stdout.split("\n").filter((l) => l.startsWith("::"));
  return {
    text,
    json: out,
    seen: {
      "check exit code": text.code,
      "check --json exit code": json.code,
      "check text": WORD[/^Project \d+: (PASS|FAIL|NO VERDICT)\b/m.exec(text.stdout)?.[1] ?? ""],
      "check --json verdict": out.verdict,
      "check --json project verdict": out.projects[0].evaluation.verdict,
      "check summary heading": WORD[/— (PASS|FAIL|NO VERDICT)\b/.exec(md)?.[1] ?? ""],
      "check summary icon": ICON[/^### (\S+) costgate check/m.exec(md)?.[1] ?? ""],
      "check annotations": annotations.some((l) =>
        /^::error title=costgate \(project \d+\)::NO VERDICT/.test(l),
      )
        ? "none"
        : annotations.some((l) => l.startsWith("::error"))
          ? "fail"
          : "pass",
    } as Record<string, unknown>,
  };
}

/** reportVerdicts runs `costgate report` as --json, text, --markdown, --html, --summary and --gate. */
async function reportVerdicts(flags: string[]) {
  const base = ["report", "--project-id", String(LIVE), ...flags];
  const html = file("report.html");
  const summary = file("report-summary.md");
  const [json, text, md, gate] = await Promise.all([
    runCli([...base, "--json"], env),
    runCli([...base, "--html", html, "--summary", summary], env),
    runCli([...base, "--markdown"], env),
    runCli([...base, "--gate", "--json"], env),
  ]);
  for (const r of [json, text, md]) expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(json.stdout);
  const page = readFileSync(html, "utf8");
  const appended = readFileSync(summary, "utf8");
  return {
    json: out,
    text: text.stdout,
    markdown: md.stdout,
    gate,
    seen: {
      "report --json verdict": out.verdict,
      "report --json evaluation.verdict": out.evaluation.verdict,
      "report --gate --json verdict": JSON.parse(gate.stdout || "{}").verdict,
      "report --gate exit code": gate.code,
      "report terminal": WORD[/^Rules\s+(PASS|FAIL|NO VERDICT)\b/m.exec(text.stdout)?.[1] ?? ""],
      "report --markdown":
        WORD[/^### \S+ costgate: .* — (PASS|FAIL|NO VERDICT)\b/m.exec(md.stdout)?.[1] ?? ""],
      "report --markdown icon": ICON[/^### (\S+) costgate:/m.exec(md.stdout)?.[1] ?? ""],
      "report --summary": WORD[/^### \S+ costgate: .* — (PASS|FAIL|NO VERDICT)\b/m.exec(appended)?.[1] ?? ""],
      "report --html": /<p class="verdict (pass|fail|none)">/.exec(page)?.[1],
      "report --html words": WORD[/<p class="verdict \w+">(PASS|FAIL|NO VERDICT)\b/.exec(page)?.[1] ?? ""],
    } as Record<string, unknown>,
  };
}

/** expectAgree asserts every output read gave `verdict` (and exit codes match it). */
function expectAgree(seen: Record<string, unknown>, verdict: Verdict) {
  const want = Object.fromEntries(
    Object.keys(seen).map((k) => [k, k.endsWith("exit code") ? EXIT[verdict] : verdict]),
  );
  expect(seen).toEqual(want);
}

/** withConfig writes a costgate.yaml naming LIVE with `body`, and gives its --config flags. */
function withConfig(body: string): string[] {
  const path = file("costgate.yaml");
  writeFileSync(path, `projectId: ${LIVE}\n${body}`);
  return ["--config", path];
}

describe("one rule judged: the verdict is that rule's, everywhere", () => {
  it.each([
    ["passes", ["--monthly-budget", "100000000"], "pass"],
    ["fails", ["--min-balance", "1000000"], "fail"],
  ] as const)("a mandatory rule that %s", async (_name, flags, verdict) => {
    const check = await checkVerdicts([...flags]);
    expectAgree(check.seen, verdict);
    const report = await reportVerdicts([...flags]);
    expectAgree(report.seen, verdict);
    // the rules without a threshold are NOT SET, never SKIP (that is only for a rule disabled on purpose)
    expect(check.text.stdout).toMatch(
      /NOT SET\s+min-runway-days \(mandatory\)\s+not configured; set --min-runway-days/,
    );
    expect(check.text.stdout).not.toMatch(/SKIP/);
    expect(report.text).toMatch(/NOT SET\s+min-runway-days/);
    expect(report.markdown).toMatch(/\| ➖ NOT SET \| `min-runway-days` \|/);
    expect(report.markdown).not.toMatch(/SKIP/);
  });
});

describe("only balance rules in an as-of replay: nothing judged, NO VERDICT everywhere", () => {
  const flags = ["--min-balance", "1", "--min-runway-days", "1", "--as-of", asOf];

  it("check and report say NO VERDICT, why, and check exits 2", async () => {
    const check = await checkVerdicts(flags);
    expectAgree(check.seen, "none");
    // each balance rule is NOT JUDGED, saying why; none is "not configured" (they were set) nor SKIP
    const findings = check.json.projects[0].evaluation.findings as {
      rule: string;
      status: string;
      message: string;
    }[];
    for (const rule of ["min-balance", "min-runway-days"]) {
      expect(findings.find((f) => f.rule === rule)).toMatchObject({
        status: "not-judged",
        message: `The ${rule} rule is not judged as of ${asOf}: the billing API gives only today's balance.`,
      });
    }
    expect(check.text.stdout).not.toMatch(/SKIP|min-balance \(mandatory\)\s+not configured/);
    expect(check.text.stdout).toMatch(
      /NOT JUDGED min-balance \(mandatory\)\s+The min-balance rule is not judged/,
    );
    expect(check.text.stderr).toMatch(
      /project 9101: NO VERDICT: no mandatory rule could be judged: The min-balance rule is not judged/,
    );
    const report = await reportVerdicts(flags);
    expectAgree(report.seen, "none");
    expect(report.text).toMatch(/NOT JUDGED\s+min-balance/);
    expect(report.gate.stderr).toMatch(/NO VERDICT: no mandatory rule could be judged/);
  });

  it("a judged rule beside them gives the verdict; per project the same rule", async () => {
    const judged = await checkVerdicts([...flags, "--monthly-budget", "100000000"]);
    expectAgree(judged.seen, "pass");
    // two projects from one file: one with only balance rules (no verdict), one with a budget (pass)
    const config = file("costgate.yaml");
    writeFileSync(
      config,
      `projects:\n  - projectId: ${LIVE}\n    minBalance: 1\n  - projectId: ${YOUNG}\n    monthlyBudget: 100000000\n`,
    );
    const r = await runCli(["check", "--config", config, "--as-of", asOf, "--json"], env);
    const out = JSON.parse(r.stdout);
    const byProject = Object.fromEntries(
      out.projects.map((p: { projectId: number; evaluation: { verdict: string } }) => [
        p.projectId,
        p.evaluation.verdict,
      ]),
    );
    expect(byProject).toEqual({ [LIVE]: "none", [YOUNG]: "pass" });
    // one project without a verdict: the run has none either
    expect([out.verdict, r.code]).toEqual(["none", 2]);
  });
});

describe("nothing a mandatory rule can judge: refused by check before any request, NO VERDICT in the report", () => {
  it.each([
    ["no threshold", "", /no budget threshold is set/],
    [
      "every rule disabled",
      "minBalance: 1\nlevels: { min-balance: disabled, monthly-budget: disabled, min-runway-days: disabled, daily-spike: disabled }\n",
      /no budget threshold is set/,
    ],
    [
      "only advisory rules",
      "minBalance: 1\nlevels: { min-balance: advisory }\n",
      /no mandatory budget rule is set: advisory rules warn but never gate/,
    ],
  ] as const)("%s", async (_name, body, refusal) => {
    const flags = withConfig(body);
    emu.requests.length = 0;
    const check = await runCli(["check", ...flags], env);
    expect([check.code, check.stdout]).toEqual([2, ""]);
    expect(check.stderr).toMatch(refusal);
    expect(emu.requests.filter((q) => q.path === "/bill/graphql")).toHaveLength(0);
    const report = await reportVerdicts(flags);
    const { "report --gate --json verdict": _unread, ...seen } = report.seen;
    // --gate refuses before any request: no JSON, exit 2, like check
    expect(report.gate.stdout).toBe("");
    expectAgree(seen, "none");
    const statuses = (report.json.evaluation.findings as { status: string; level: string }[]).map(
      (f) => `${f.level}:${f.status}`,
    );
    // SKIP only where a rule was disabled on purpose
    for (const s of statuses) expect(s.endsWith(":skip")).toBe(s.startsWith("disabled:"));
  });
});

describe("the policy pack: a rule it cannot judge is reported, never a silent pass", () => {
  it("reports daily-spike on a project with two days of charges as not judged, at the policy's level", async () => {
    const pack = await startPolicyPack(env);
    try {
      await pack.configure({
        "min-balance": { enforcementLevel: "mandatory", projectId: YOUNG, minBalance: 1 },
        "monthly-budget": { enforcementLevel: "disabled" },
        "min-runway-days": { enforcementLevel: "disabled" },
        "daily-spike": { enforcementLevel: "mandatory", projectId: YOUNG },
      });
      const ds = await pack.analyzeStack([{ type: "pulumi:pulumi:Stack", name: "app", props: {} }]);
      const rules = ds.filter((d) => d.policyName !== "billing-available");
      expect(rules.map((d) => [d.policyName, d.enforcementLevel])).toEqual([["daily-spike", "mandatory"]]);
      expect(rules[0]?.message).toMatch(
        /^The daily-spike rule is not judged for project 9102: it has \d+ days? of charges before .* and needs at least 3\. The policy reports it/,
      );
    } finally {
      pack.close();
    }
  });
});
