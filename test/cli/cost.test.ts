/**
 * `costgate cost --preview`: the command as CI runs it — files and standard input, JSON, Markdown with
 * --quiet-below, --summary, the gates on the change, the budget rules after it against the emulator, and
 * malformed previews refused with exit 2 before anything is read.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { runCli } from "../helpers/cli";
import { bash } from "../helpers/shell";

const FIX = resolve(__dirname, "../fixtures/preview");
const BIN = resolve(__dirname, "../../bin/costgate");
const ALL = join(FIX, "all-ops.json");
const CARD = join(FIX, "rate-card.yaml");
let emu: Emulator;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
  dir = mkdtempSync(join(tmpdir(), "costgate-cost-"));
});
afterAll(async () => {
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cost = (...args: string[]) => runCli(["cost", "--preview", ALL, "--rate-card", CARD, ...args], env);
const billing = () => emu.requests.filter((r) => r.path === "/bill/graphql");

describe("costgate cost", () => {
  it("prints the JSON the issue names, amounts to the cent, unpriced resources named", async () => {
    const r = await cost("--json");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({
      currency: "EUR",
      totals: { monthlyBefore: 116.34, monthlyAfter: 384.36, monthlyDelta: 268.02 },
      verdict: "none",
      forecast: null,
    });
    expect(j.resources[0]).toEqual({
      urn: "urn:pulumi:prod::infra::my:app:WebTier$openstack:compute/instance:Instance::web-1",
      type: "openstack:compute/instance:Instance",
      op: "create",
      monthlyBefore: 0,
      monthlyAfter: 101.25,
      monthlyDelta: 101.25,
      pricedBy: "flavor m1.large: 101.25/month",
    });
    expect(j.unpriced.map((u: { urn: string }) => u.urn.split("::").pop())).toEqual([
      "secret-flavor",
      "scratch",
      "www",
    ]);
    for (const u of j.unpriced) expect(Object.keys(u)).toEqual(["urn", "type", "op", "reason"]);
    expect(r.stdout).not.toContain("[secret]");
  });

  it("reads the preview from standard input, as `pulumi preview --json | costgate cost --preview -`", async () => {
    const r = await bash(`cat '${ALL}' | node '${BIN}' cost --preview - --rate-card '${CARD}' --json`);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).totals.monthlyDelta).toBe(268.02);
  });

  it("gates the change: --max-monthly-increase, --max-increase-percent, --fail-on-unpriced (exit 1)", async () => {
    const over = await cost("--max-monthly-increase", "200");
    expect(over.code).toBe(1);
    expect(over.stdout).toMatch(
      /FAIL +max-monthly-increase +The change adds 268\.02 a month; at most 200\.00 more is allowed\./,
    );
    expect((await cost("--max-monthly-increase", "300")).code).toBe(0);
    const pct = await cost("--max-increase-percent", "100", "--json");
    expect(pct.code).toBe(1);
    expect(JSON.parse(pct.stdout).gates[0]).toMatchObject({ gate: "max-increase-percent", status: "fail" });
    const unpriced = await cost("--fail-on-unpriced");
    expect(unpriced.code).toBe(1);
    expect(unpriced.stdout).toMatch(/FAIL +unpriced +3 resources could not be priced/);
    const fine = await runCli(
      ["cost", "--preview", join(FIX, "replacement-steps.json"), "--rate-card", CARD, "--fail-on-unpriced"],
      env,
    );
    expect(fine.code).toBe(0);
  });

  it("writes a pull-request comment, and nothing below --quiet-below; --summary appends it", async () => {
    const md = await cost("--markdown");
    expect(md.stdout).toMatch(/^### 💰 costgate cost: \+268\.02 a month \(EUR\)/);
    expect(md.stdout).toContain("| Resource | Type | Operation | Before | After | Delta | Priced by |");
    expect(md.stdout).toContain(
      "| `app` | openstack:compute/instance:Instance | update | 25.33 | 50.66 | +25.33 |",
    );
    expect(md.stdout).toContain("<details><summary>Unchanged resources (1)</summary>");
    expect(md.stdout).toContain("**Unpriced** (not in the totals):");
    // the advisory unpriced gate reads WARN in the comment, as in the terminal, never FAIL
    expect(md.stdout).toMatch(/^\| `unpriced` \| advisory \| WARN \| 3 resources could not be priced/m);
    expect((await cost()).stdout).toMatch(/WARN +unpriced +3 resources could not be priced/);
    const quiet = await cost("--markdown", "--quiet-below", "500");
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe("");
    const summary = join(dir, "summary.md");
    writeFileSync(summary, "");
    await cost("--summary", summary, "--quiet-below", "100");
    expect(readFileSync(summary, "utf8")).toContain("costgate cost: +268.02 a month");
  });

  it("judges the budget rules after the change on live billing, with the model's quantiles", async () => {
    emu.requests.length = 0;
    const r = await cost(
      "--project-id",
      "4242",
      "--monthly-budget",
      "1000000",
      "--min-runway-days",
      "1",
      "--json",
    );
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    const { before, after } = j.forecast;
    // 268.02 a month more is 8.81 a day: every quantile of the month's end grows, the runway shrinks
    expect(after.monthEnd.p80).toBeGreaterThan(before.monthEnd.p80);
    expect(after.runwayDays.p80).toBeLessThanOrEqual(before.runwayDays.p80);
    // the month's end moves by this month's pro-rated extra: 268.02 × hours left ÷ 730
    expect(Math.abs(after.monthEnd.p50 - before.monthEnd.p50 - j.thisMonth.extra)).toBeLessThan(0.5);
    expect(j.gates.map((g: { gate: string; status: string }) => `${g.gate}:${g.status}`)).toEqual([
      "monthly-budget:pass",
      "min-runway-days:pass",
      "unpriced:fail",
    ]);
    expect(j.gates[0].message).toMatch(/after a change adding 8\.81\/day/);
    expect(j.verdict).toBe("pass");
    expect(billing().length).toBe(2); // the balance and one read of the charges
    const tight = await cost("--project-id", "4242", "--monthly-budget", "1000");
    expect(tight.code).toBe(1);
  });

  it.each([
    [
      ["--preview", join(FIX, "truncated.json")],
      /--preview: .*truncated\.json ends before its JSON does at line \d+, column \d+: the file is truncated/,
    ],
    [["--preview", join(FIX, "not-json.txt")], /--preview: .*not-json\.txt is not JSON/],
    [["--preview", join(FIX, "not-a-digest.json")], /is JSON but not a preview digest: it has no steps/],
    [["--preview", join(FIX, "nope.json")], /--preview: cannot read .*nope\.json \(ENOENT\)/],
    [[], /--preview: missing/],
  ])("refuses %o with exit 2 and one line", async (args, message) => {
    const r = await runCli(["cost", "--rate-card", CARD, ...args], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("refuses a bad rate card, a missing one, and budget thresholds without a project, before any request", async () => {
    emu.requests.length = 0;
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, "flavors:\n  m1.small: -1\n");
    const r1 = await runCli(["cost", "--preview", ALL, "--rate-card", bad], env);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toMatch(/bad\.yaml:2: flavors\.m1\.small: must be 0 or more/);
    const r2 = await runCli(["cost", "--preview", ALL], env);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/--rate-card: missing/);
    const r3 = await runCli(["cost", "--preview", ALL, "--rate-card", CARD, "--monthly-budget", "5"], env);
    expect(r3.code).toBe(2);
    expect(r3.stderr).toMatch(/--project-id: missing/);
    expect(billing()).toHaveLength(0);
  });
});
