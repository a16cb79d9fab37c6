/**
 * One question, one answer (issue 21, the remaining items), against real servers on 127.0.0.1: one
 * reader of durations behind every flag, variable and resource argument that takes one, each refusing
 * the same hostile values and naming the setting, with nothing sent.
 */
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../../cli/errors";
import { seconds } from "../../cli/options/parse";
import { isConfigError } from "../../provider/errors";
import { MAX_DURATION_SECONDS, readDuration } from "../../provider/numbers";
import { parseDuration } from "../../provider/resources/duration";
import { runCli } from "../helpers/cli";
import { type HostileServer, startHostileServer, wellFormed } from "./server";

let server: HostileServer;
const TOKEN = "hostile-door2-token-0123456789abcdef";

beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => {
  server.answer = wellFormed;
  server.requests.length = 0;
});

const billing = (more: Record<string, string> = {}) => ({
  COSTGATE_BILLING_URL: server.url,
  COSTGATE_BILLING_TOKEN: TOKEN,
  COSTGATE_RETRIES: "0",
  ...more,
});

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
    expect(server.requests).toEqual([]);
  });

  it("takes the same forms on every surface: 90s is 90 seconds for --timeout as for renewBefore", async () => {
    expect(parseDuration("1h30m", "renewBefore")).toBe(5400);
    expect(seconds("1h30m", "--timeout", 2 ** 31 - 1)).toBe(5_400_000);
    expect(seconds("2.5", "--timeout", 2 ** 31 - 1)).toBe(2500);
    const r = await runCli(["balance", "--project-id", "4242", "--timeout", "90s"], billing());
    expect(r.code, r.stderr).toBe(0);
  });
});
