/**
 * One question, one answer (issue 21, the remaining items), against real servers on 127.0.0.1: one
 * reader of durations behind every flag, variable and resource argument that takes one, each refusing
 * the same hostile values and naming the setting, with nothing sent; and the library naming its settings
 * in its own words while the command names its flags, from one table (cli/names.ts).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../cli/errors";
import { IDENTITY_FLAGS } from "../../cli/identity-options";
import { CLI_NAMES } from "../../cli/names";
import { seconds } from "../../cli/options/parse";
import { isConfigError } from "../../provider/errors";
import { MAX_DURATION_SECONDS, readDuration } from "../../provider/numbers";
import { parseDigest } from "../../provider/preview/digest";
import { parseDuration } from "../../provider/resources/duration";
import { resolveBillingSettings, resolveIdentitySettings } from "../../provider/settings";
import { WatchMetrics } from "../../provider/watch/metrics";
import { emptyWatchState } from "../../provider/watch/state";
import { Watcher } from "../../provider/watch/watcher";
import { runCli } from "../helpers/cli";
import { useHostileServer } from "./server";

const TOKEN = "hostile-door2-token-0123456789abcdef";
const hostile = useHostileServer(TOKEN);
const billing = hostile.billingEnv;

/** What no duration reader takes, whatever the surface. */
const HOSTILE = [
  "1e3",
  "0x10",
  "-5",
  "+5",
  "Infinity",
  "NaN",
  "",
  "  ",
  "30\n",
  "\t30",
  "3\u00000",
  "30\u001b[2J",
  "１２",
  "1.5h",
  "2d",
  "h",
  "30ms",
  "9".repeat(400),
  "99999999999999999999",
  "9999999h",
  `${MAX_DURATION_SECONDS + 1}`,
];

describe("one reader of durations", () => {
  it("reads seconds and h/m/s forms, and nothing else", () => {
    expect(readDuration("30")).toBe(30);
    expect(readDuration(" 2.5 ")).toBe(2.5);
    expect(readDuration("1000.0")).toBe(1000);
    expect(readDuration("1h30m")).toBe(5400);
    expect(readDuration("90s")).toBe(90);
    expect(readDuration(45)).toBe(45);
    for (const v of HOSTILE) expect(readDuration(v), JSON.stringify(v)).toBeUndefined();
    for (const v of [
      -1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      MAX_DURATION_SECONDS + 1,
      null,
      {},
      [30],
      true,
    ])
      expect(readDuration(v), String(v)).toBeUndefined();
  });

  it("agrees with the grammar on arbitrary text, in bounded time", () => {
    const grammar = /^ *(\d+(\.\d+)?|(\d{1,12}h)?(\d{1,12}m)?(\d{1,12}s)?) *$/;
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.stringMatching(/^ ?\d{0,6}(\.\d{0,3})?[hms]?\d{0,3}[hms]? ?$/),
      fc.constantFrom(...HOSTILE),
    );
    fc.assert(
      fc.property(text, (t) => {
        const n = readDuration(t);
        if (n === undefined) return;
        expect(grammar.test(t) && t.trim() !== "").toBe(true);
        expect(n).toBeGreaterThanOrEqual(0);
        expect(n).toBeLessThanOrEqual(MAX_DURATION_SECONDS);
      }),
      { numRuns: 2000 },
    );
    const started = performance.now();
    for (const t of ["9".repeat(1_000_000), `${"1h".repeat(200_000)}`, `${" ".repeat(500_000)}x`])
      expect(readDuration(t)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it.each(HOSTILE)("refuses %j as a resource argument, naming it", (v) => {
    const e = (() => {
      try {
        parseDuration(v, "renewBefore");
      } catch (x) {
        return x;
      }
    })();
    expect(isConfigError(e)).toBe(true);
    expect((e as Error).message).toMatch(/^renewBefore: /);
  });

  it.each(HOSTILE)("refuses %j as a flag, naming it", (v) => {
    expect(() => seconds(v, "--timeout", 2 ** 31 - 1)).toThrow(UsageError);
    expect(() => seconds(v, "--timeout", 2 ** 31 - 1)).toThrow(/^--timeout: /);
  });

  it("refuses them on the command line, in flags and the environment, before any request", async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [["balance", "--project-id", "4242", "--timeout", "1e3"], {}, /--timeout: "1e3" is not a positive/],
      [["balance", "--project-id", "4242", "--timeout", "0x10"], {}, /--timeout: "0x10" is not a positive/],
      [["balance", "--project-id", "4242", "--timeout", "-5"], {}, /--timeout: "-5" is not a positive/],
      [
        ["balance", "--project-id", "4242", "--timeout", "99999999999999999999"],
        {},
        /--timeout: "99999999999999999999" seconds is longer than a timer can hold/,
      ],
      [
        ["balance", "--project-id", "4242", "--timeout", "3\u001b0"],
        {},
        /--timeout: "3[^"]*" is not a positive/,
      ],
      [
        ["watch", "--once", "--project-id", "4242", "--interval", "0x10"],
        {},
        /--interval: "0x10" is not a duration/,
      ],
      [
        ["watch", "--once", "--project-id", "4242", "--interval", "1e3"],
        {},
        /--interval: "1e3" is not a duration/,
      ],
      [
        ["exec", "--", "true"],
        { COSTGATE_EXEC_GRACE_SECONDS: "1e3" },
        /COSTGATE_EXEC_GRACE_SECONDS is "1e3"/,
      ],
      [["exec", "--grace-period", "0x10", "--", "true"], {}, /--grace-period is "0x10"/],
    ];
    for (const [args, more, message] of cases) {
      const r = await runCli(args, billing(more));
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain("\u001b");
    }
    expect(hostile.server.requests).toEqual([]);
  });

  it("takes the same forms on every surface: 90s is 90 seconds for --timeout as for renewBefore", async () => {
    expect(parseDuration("1h30m", "renewBefore")).toBe(5400);
    expect(seconds("1h30m", "--timeout", 2 ** 31 - 1)).toBe(5_400_000);
    expect(seconds("2.5", "--timeout", 2 ** 31 - 1)).toBe(2500);
    const r = await runCli(["balance", "--project-id", "4242", "--timeout", "90s"], billing());
    expect(r.code, r.stderr).toBe(0);
  });
});

/** refusal is the message `fn` throws (it must throw). */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error("accepted");
}

/** Every flag of the command line that names a library setting (cli/names.ts and the identity flags). */
const CLI_FLAGS = [...new Set([...Object.values(CLI_NAMES), ...IDENTITY_FLAGS])];
const hasCliWord = (text: string) => CLI_FLAGS.some((f) => new RegExp(`(^|[^\\w-])${f}\\b`).test(text));

describe("each side names settings in its own words", () => {
  it("the library names its arguments, never a flag of the command line", async () => {
    const messages = [
      refusal(() => resolveIdentitySettings({}, {})),
      refusal(() => resolveIdentitySettings({ authUrl: "ftp://x/v3" }, {})),
      refusal(() => resolveIdentitySettings({ cloud: "nowhere" }, { HOME: "/nonexistent" })),
      refusal(() => resolveBillingSettings({}, undefined, {})),
      refusal(() => parseDigest("", "preview.json")),
      refusal(() => parseDigest("{", "preview.json")),
    ];
    expect(messages[0]).toMatch(
      /^authUrl: missing; give the identity address \(authUrl or OS_AUTH_URL\), or name a cloud of clouds\.yaml \(cloud or OS_CLOUD\)/,
    );
    expect(messages[1]).toMatch(/^authUrl: /);
    expect(messages[2]).toMatch(/^cloud: /);
    expect(messages[3]).toMatch(
      /^billingUrl: missing; give the billing base address \(billingUrl, costgate:billingUrl or COSTGATE_BILLING_URL\)/,
    );
    expect(messages[4]).toMatch(/^preview: /);
    expect(messages[5]).toMatch(/^preview: /);
    // a watch cycle over its cap names the watcher's own setting
    const lines: string[] = [];
    const watcher = new Watcher({
      endpoint: { baseUrl: hostile.server.url, token: TOKEN, transport: { retry: false } },
      targets: [{ projectId: 4242, config: { minBalance: 1 } }],
      product: 1,
      concurrency: 1,
      requestsPerCycle: 1,
      metrics: new WatchMetrics(),
      state: emptyWatchState(),
      destinations: [],
      webhookTransport: {},
      save: () => {},
      log: (l) => lines.push(l),
    });
    const cycle = await watcher.cycle();
    const capped = cycle.results[0]?.error ?? "";
    expect(capped).toMatch(/requestsPerCycle: reached/);
    messages.push(capped);
    for (const m of messages) expect(hasCliWord(m), m).toBe(false);
  });

  it("the command names its flags for the same refusals, from the one table", async () => {
    const dir = mkdtempSync(join(tmpdir(), "costgate-door2-"));
    try {
      writeFileSync(join(dir, "preview.json"), "{");
      writeFileSync(join(dir, "card.json"), JSON.stringify({ flavors: { "m1.small": 0.5 } }));
      const cases: [string[], Record<string, string>, RegExp][] = [
        [
          ["token"],
          {},
          /^costgate: error: --os-auth-url: missing; give the identity address \(--os-auth-url or OS_AUTH_URL\), or name a cloud of clouds\.yaml \(--os-cloud or OS_CLOUD\)/,
        ],
        [
          ["token", "--os-auth-url", "ftp://x/v3"],
          {},
          /^costgate: error: --os-auth-url: must be an http\(s\) URL/,
        ],
        [["token", "--os-cloud", "nowhere"], {}, /^costgate: error: --os-cloud: /],
        [
          ["balance", "--project-id", "4242"],
          { COSTGATE_BILLING_TOKEN: TOKEN },
          /^costgate: error: --billing-url: missing; give the billing base address \(--billing-url or COSTGATE_BILLING_URL\)/,
        ],
        [
          ["cost", "--preview", join(dir, "preview.json"), "--rate-card", join(dir, "card.json")],
          {},
          /^costgate: error: --preview: .*preview\.json ends before/,
        ],
      ];
      for (const [args, env, message] of cases) {
        const r = await runCli(args, env);
        expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(message);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("no text the library writes holds a flag of the command line (pulumi's own flags aside)", () => {
    const root = resolve(__dirname, "../../provider");
    const found: string[] = [];
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith(".ts")) {
          // the code without its comments: block comments, then line comments that are not in a URL
          const code = readFileSync(p, "utf8")
            .replace(/\/\*[\s\S]*?\*\//g, "")
            .replace(/(^|[^:\\])\/\/.*$/gm, "$1")
            .replace(/pulumi preview --json/g, "");
          for (const f of CLI_FLAGS)
            if (new RegExp(`(^|[^\\w-])${f}\\b`).test(code)) found.push(`${p}: ${f}`);
        }
      }
    };
    walk(root);
    expect(found).toEqual([]);
  });
});
