/**
 * vitest globalSetup: a real OpenStack Keystone on loopback (test/keystone/keystone.sh), provided to the
 * tests as `inject("keystone")`.
 *
 * - the clock shifted by scripts/calendar.js (COSTGATE_CLOCK_OFFSET_MS): `keystone: null`, as below.
 * - keystone-manage missing and CI !== "true": provides `keystone: null` and a `keystoneSkipReason`; the
 *   tests that need Keystone skip (`describe.skipIf(!inject("keystone"))`).
 * - otherwise keystone.sh starts one (installing python3-keystone with apt-get if it must, as root);
 *   if that fails under CI=true the run fails, elsewhere the Keystone tests skip with the reason printed.
 */
import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import type { KeystoneEnv } from "./env";

export type { KeystoneEnv } from "./env";

const run = promisify(execFile);
const SCRIPT = resolve(__dirname, "keystone.sh");
const START_TIMEOUT_MS = 180_000;

async function onPath(cmd: string): Promise<boolean> {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    try {
      await access(join(dir, cmd), constants.X_OK);
      return true;
    } catch {
      // not in this one
    }
  }
  return false;
}

function skip(project: TestProject, reason: string): void {
  project.provide("keystone", null);
  project.provide("keystoneSkipReason", reason);
  process.stderr.write(`[keystone] real-Keystone tests skipped: ${reason}\n`);
}

function describeError(err: unknown): string {
  const e = err as { message?: string; killed?: boolean; signal?: string };
  // execFile's message is "Command failed: <cmd>\n<stderr>": keystone.sh's own messages and log tails.
  if (e.killed)
    return `timed out after ${START_TIMEOUT_MS / 1000} s (${e.signal ?? "killed"})\n${e.message ?? ""}`;
  return e.message ?? String(err);
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const ci = process.env.CI === "true";
  if (Number(process.env.COSTGATE_CLOCK_OFFSET_MS ?? 0) !== 0) {
    // scripts/calendar.js moved node's clock; Keystone (python) keeps the real one, so a token it issues
    // would be refused as expired (or more than a year away) on the moved clock
    skip(project, "the clock is shifted (scripts/calendar.js): Keystone issues tokens on the real clock");
    return undefined;
  }
  if (!ci && !(await onPath("keystone-manage"))) {
    skip(project, "keystone-manage not found: install python3-keystone (apt) or run with CI=true");
    return undefined;
  }

  const dir = await mkdtemp(join(tmpdir(), "costgate-keystone-"));
  const stop = async (): Promise<void> => {
    try {
      await run("bash", [SCRIPT, "stop", dir], { timeout: 30_000 });
    } finally {
      if (process.env.COSTGATE_KEEP_KEYSTONE_DIR !== "1") await rm(dir, { recursive: true, force: true });
    }
  };

  const started = Date.now();
  let env: KeystoneEnv;
  try {
    await run("bash", [SCRIPT, "start", dir], {
      timeout: START_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
      // if vitest dies without running the teardown, the server stops by itself
      env: { ...process.env, KEYSTONE_WATCH_PID: String(process.pid) },
    });
    env = JSON.parse(await readFile(join(dir, "env.json"), "utf8")) as KeystoneEnv;
  } catch (err) {
    const reason = `keystone.sh start failed: ${describeError(err)}`;
    await stop().catch(() => undefined);
    if (ci) throw new Error(reason);
    skip(project, reason);
    return undefined;
  }

  process.stderr.write(
    `[keystone] real Keystone at ${env.authUrl} (pid ${env.pid}) ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  project.provide("keystone", env);
  project.provide("keystoneSkipReason", "");
  return stop;
}
