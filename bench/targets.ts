/**
 * The endpoints the benchmark measures against: the emulator (in this process) and, when
 * keystone-manage is installed, a real Keystone started with test/keystone/keystone.sh.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Emulator, startEmulator } from "../emulator";
import { runProcess } from "./measure";

/** An identity endpoint and an application credential on it. */
export interface IdentityTarget {
  label: string;
  authUrl: string;
  appCredId: string;
  appCredSecret: string;
}

/** The fields of keystone.sh's env.json the benchmark reads (see test/keystone/env.ts). */
interface KeystoneEnvFile {
  authUrl: string;
  appCredId: string;
  appCredSecret: string;
}

/** startEmulatorTarget starts the emulator on 127.0.0.1 port 0. */
export async function startEmulatorTarget(): Promise<{ emu: Emulator; target: IdentityTarget }> {
  const emu = await startEmulator({ port: 0 });
  const c = emu.seed.applicationCredentials.demo;
  return {
    emu,
    target: { label: "emulator", authUrl: emu.identityUrl, appCredId: c.id, appCredSecret: c.secret },
  };
}

/**
 * startKeystone starts a real Keystone (or uses the one whose env.json is in
 * `COSTGATE_BENCH_KEYSTONE_DIR`, leaving it running). Resolves undefined, with the reason logged,
 * when it cannot.
 */
export async function startKeystone(
  root: string,
  log: (line: string) => void,
): Promise<{ target: IdentityTarget; stop: () => Promise<void> } | undefined> {
  const given = process.env["COSTGATE_BENCH_KEYSTONE_DIR"];
  const script = join(root, "test", "keystone", "keystone.sh");
  const dir = given ?? mkdtempSync(join(tmpdir(), "costgate-bench-keystone-"));
  const stop = async () => {
    if (given) return;
    await runProcess("bash", [script, "stop", dir]).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (!given) {
      log("starting a real Keystone (test/keystone/keystone.sh, ~30 s)...");
      await runProcess("bash", [script, "start", dir], {
        env: { ...process.env, KEYSTONE_WATCH_PID: String(process.pid) },
      });
    }
    const env = JSON.parse(readFileSync(join(dir, "env.json"), "utf8")) as KeystoneEnvFile;
    return {
      target: {
        label: "Keystone",
        authUrl: env.authUrl,
        appCredId: env.appCredId,
        appCredSecret: env.appCredSecret,
      },
      stop,
    };
  } catch (e) {
    log(`no real Keystone: ${(e as Error).message.split("\n")[0]}`);
    await stop();
    return undefined;
  }
}
