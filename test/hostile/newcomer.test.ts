/**
 * The newcomer's refusals against a live endpoint: each bad setting — in a flag, a variable or the
 * config file — is refused with exit 2, named where the user wrote it, in costgate's words, and before a
 * single request reaches the endpoint. The map form of `projects` reads every project it names.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";
import { type HostileServer, startHostileServer } from "./server";

let server: HostileServer;
let billing: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), "costgate-newcomer-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

beforeAll(async () => {
  server = await startHostileServer();
  billing = { COSTGATE_BILLING_URL: server.url, COSTGATE_BILLING_TOKEN: "hostile-token" };
});
afterAll(async () => {
  await server?.close();
});

const ZOD_WORDS = /Invalid (input|option|key|element|value)|Too (big|small)|received \w+|Unrecognized key/;

describe("refused before anything is sent (exit 2)", () => {
  it.each<[string, () => string[], Record<string, string>, RegExp]>([
    [
      "--project-id 0",
      () => ["balance", "--project-id", "0"],
      {},
      /^costgate: error: --project-id: "0" is not a project id \(it must be 1 or more\)/,
    ],
    [
      "a --from in the future",
      () => ["usage", "--project-id", "4242", "--from", "2999-01-01"],
      {},
      /^costgate: error: --from: 2999-01-01 is in the future \(it is now [^)]+\); give a start of \d{4}-\d\d-\d\d or earlier/,
    ],
    [
      "report --from in the future",
      () => ["report", "--project-id", "4242", "--from", "2999-01-01", "--min-balance", "1"],
      {},
      /^costgate: error: --from: 2999-01-01 is in the future/,
    ],
    [
      "--os-cloud with no clouds.yaml",
      () => ["token", "--os-cloud", "nowhere"],
      { OS_CLIENT_CONFIG_FILE: "/nonexistent/clouds.yaml" },
      /^costgate: error: --os-cloud: cloud "nowhere" was asked for/,
    ],
    [
      "OS_CLOUD with no clouds.yaml",
      () => ["token"],
      { OS_CLOUD: "nowhere", OS_CLIENT_CONFIG_FILE: "/nonexistent/clouds.yaml" },
      /^costgate: error: OS_CLOUD: cloud "nowhere"/,
    ],
    [
      "--os-auth-url ftp",
      () => ["token", "--os-auth-url", "ftp://x/v3"],
      {},
      /^costgate: error: --os-auth-url: must be an http\(s\) URL/,
    ],
    [
      "a budget of 10^20",
      () => ["check", "--project-id", "4242", "--monthly-budget", "100000000000000000000"],
      {},
      /^costgate: error: --monthly-budget: is more than 1,000,000,000,000/,
    ],
    [
      "a minimum balance in tenths of a cent",
      () => ["check", "--project-id", "4242", "--min-balance", "10.555"],
      {},
      /^costgate: error: --min-balance: has more than 2 decimals/,
    ],
    [
      "report with a budget of 10^20",
      () => ["report", "--project-id", "4242", "--monthly-budget", "100000000000000000000"],
      {},
      /^costgate: error: --monthly-budget: is more than 1,000,000,000,000/,
    ],
    [
      "a runway of 10^20 days",
      () => ["check", "--project-id", "4242", "--min-runway-days", "100000000000000000000"],
      {},
      /^costgate: error: --min-runway-days: must be at most 1000000 days/,
    ],
    [
      "the map form keyed by __proto__",
      () => ["check", "--config", file("proto.yaml", "projects:\n  __proto__: { minBalance: 5 }\n")],
      {},
      /^costgate: error: \S+proto\.yaml:2: projects\["__proto__"\]: the key must be a project id/,
    ],
    [
      "the map form keyed by constructor (JSON)",
      () => ["check", "--config", file("ctor.json", '{"projects": {\n "constructor": {"minBalance": 5}}}')],
      {},
      /^costgate: error: \S+ctor\.json:2: projects\["constructor"\]: the key must be a project id/,
    ],
    [
      "a word for a budget",
      () => [
        "check",
        "--config",
        file("word.yaml", "projects:\n  - projectId: 4242\n    monthlyBudget: abc\n"),
      ],
      {},
      /^costgate: error: \S+word\.yaml:3: projects\[0\]\.monthlyBudget: expected a number of currency units, e.g\. 45000; got "abc"$/m,
    ],
    [
      "a budget of 10^20 in the file",
      () => ["check", "--config", file("big.yaml", "projectId: 4242\nmonthlyBudget: 1e20\n")],
      {},
      /^costgate: error: \S+big\.yaml:2: monthlyBudget: is more than 1,000,000,000,000/,
    ],
    [
      "JSON with a trailing comma",
      () => ["check", "--config", file("comma.json", '{"projectId": 4242,\n "minBalance": 5,\n}')],
      {},
      /^costgate: error: \S+comma\.json:3:1: is not valid JSON/,
    ],
    [
      "YAML badly indented",
      () => ["check", "--config", file("indent.yaml", "projectId: 4242\nminBalance: [5\n")],
      {},
      /^costgate: error: \S+indent\.yaml:3:1: is not valid YAML/,
    ],
  ])("%s", async (_name, args, env, message) => {
    const before = server.requests.length;
    const r = await runCli(args(), { ...billing, ...env });
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(ZOD_WORDS);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(server.requests.length).toBe(before);
  });
});

describe("cost's amounts are bounded as the thresholds are", () => {
  const preview = join(__dirname, "../fixtures/preview");
  it.each([
    ["--max-monthly-increase", "100000000000000000000", /is more than 1,000,000,000,000/],
    ["--quiet-below", "0.001", /has more than 2 decimals/],
  ])("%s %s", async (flag, value, message) => {
    const r = await runCli(
      [
        "cost",
        "--preview",
        join(preview, "all-ops.json"),
        "--rate-card",
        join(preview, "rate-card.yaml"),
        flag,
        value,
      ],
      {},
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^costgate: error: ${flag}: "${value}" ${message.source}`));
  });
});

describe("projects as a map keyed by project id", () => {
  it("checks each project it names with its own thresholds", async () => {
    const before = server.requests.length;
    const config = file(
      "map.yaml",
      'minBalance: 100\nprojects:\n  "4242": {}\n  "7": { minBalance: 5000 }\n',
    );
    const r = await runCli(["check", "--config", config], billing);
    // the endpoint's balance is 1312.40: over 100 for 4242, under 5000 for 7
    expect(r.stdout).toMatch(/^Project 7: FAIL/m);
    expect(r.stdout).toMatch(/^Project 4242: PASS/m);
    expect(r.code).toBe(1);
    const ids = server.requests
      .slice(before)
      .filter((q) => q.operation === "balance")
      .map((q) => JSON.stringify(q.json));
    expect(ids.some((b) => b.includes("4242"))).toBe(true);
    expect(ids.some((b) => /\b7\b/.test(b))).toBe(true);
  });
});
