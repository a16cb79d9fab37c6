/**
 * Hostile inputs to `costgate watch`: a webhook URL whose path is its secret never appears in the log
 * or the state file; bad flags and a state file that is not one are refused before anything is sent
 * (exit 2, the flag named); the state parser is bounded on arbitrary input.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { isConfigError } from "../../provider/errors";
import { parseWatchState } from "../../provider/watch/state";
import { runCli } from "../helpers/cli";
import { series } from "../watch/harness";

let emu: Emulator;
let env: Record<string, string>;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  emu.setProject({ id: 9301, products: { 1: { balance: 100, bonuses: 0, daily: series(100) } } });
  env = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
  dir = mkdtempSync(join(tmpdir(), "costgate-hostile-watch-"));
});
afterAll(async () => {
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const base = ["watch", "--once", "--project-id", "9301", "--min-runway-days", "14"];

describe("costgate watch, hostile", () => {
  it("never prints a webhook's secret path, nor keeps it in the state", async () => {
    const secret = "T0CANARY/B0CANARY/Xq7wRkSecretWebhookPath1234";
    const state = join(dir, "secret.json");
    // nothing listens on port 9: the delivery fails and its error is logged
    const r = await runCli(
      [...base, "--state", state, "--slack-webhook", `http://127.0.0.1:9/services/${secret}`],
      {
        ...env,
        COSTGATE_DEBUG: "1",
      },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/webhook http:\/\/127\.0\.0\.1:9\/…: not delivered/);
    for (const text of [r.stdout, r.stderr, readFileSync(state, "utf8")]) {
      expect(text).not.toContain("Xq7wRkSecret");
      expect(text).not.toContain("B0CANARY");
    }
  });

  it("refuses a webhook that is not https (but loopback), or not a URL, naming the flag and not the URL", async () => {
    emu.requests.length = 0;
    const plain = await runCli([...base, "--webhook", "http://hooks.example/T1/B1/sekrit-path-123"], env);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/--webhook: http:\/\/hooks\.example\/… is not https:\/\//);
    expect(plain.stderr).not.toContain("sekrit");
    const junk = await runCli([...base, "--slack-webhook", "not a url sekrit-path"], env);
    expect(junk.code).toBe(2);
    expect(junk.stderr).toMatch(/--slack-webhook: is not a URL/);
    expect(junk.stderr).not.toContain("sekrit");
    expect(emu.requests.filter((x) => x.path === "/bill/graphql")).toHaveLength(0);
  });

  it("refuses bad --interval, --listen and --gate without --once, before any request", async () => {
    const flags: [string[], RegExp][] = [
      [["--interval", "0s"], /--interval: "0s" is under a second/],
      [["--interval", "2d"], /--interval: "2d" is not a duration/],
      [["--interval", "25h"], /--interval: "25h" is over a day/],
      [["--listen", "nowhere"], /--listen: "nowhere" is not host:port/],
      [["--listen", "127.0.0.1:70000"], /--listen: "127.0.0.1:70000" is not host:port/],
    ];
    for (const [extra, message] of flags) {
      const r = await runCli([...base, ...extra], env);
      expect(r.code, extra.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const gate = await runCli(["watch", "--project-id", "9301", "--min-runway-days", "14", "--gate"], env);
    expect(gate.code).toBe(2);
    expect(gate.stderr).toMatch(/--gate: only with --once/);
  });

  it("refuses a state file that is not one (exit 2) and leaves it as it was", async () => {
    const state = join(dir, "junk.json");
    for (const text of [
      "{not json",
      '{"version":2}',
      '{"version":1,"firing":[],"readErrors":{},"outbox":[]}',
    ]) {
      writeFileSync(state, text);
      const r = await runCli([...base, "--state", state], env);
      expect(r.code, text).toBe(2);
      expect(r.stderr).toMatch(/--state: is not a costgate watch state/);
      expect(readFileSync(state, "utf8")).toBe(text);
    }
  });

  it("parses any text as a state or refuses it with a ConfigError, in bounded time", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 2000 }), fc.json({ maxDepth: 4 })), (text) => {
        const start = performance.now();
        try {
          parseWatchState(text, "--state");
        } catch (e) {
          expect(isConfigError(e)).toBe(true);
        }
        expect(performance.now() - start).toBeLessThan(200);
      }),
      { numRuns: 300 },
    );
  });
});
