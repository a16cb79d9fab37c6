/**
 * bin/costgate, the way a shell runs it: from the command's V8 startup snapshot when the node on
 * PATH built it, else as a node script (the bundle, or dist/ when the bundle is older than dist/).
 * The package is copied to a temporary directory for the cases that change its files.
 */
import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";

const ROOT = resolve(__dirname, "../..");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const SNAPSHOT = /started from the snapshot/;

let emu: Emulator;
let tmp: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  tmp = mkdtempSync(join(tmpdir(), "costgate-launcher-"));
});
afterAll(async () => {
  await emu?.close();
  rmSync(tmp, { recursive: true, force: true });
});

function run(
  file: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const c = emu.seed.applicationCredentials.demo;
  return new Promise((ok) => {
    execFile(
      file,
      args,
      {
        env: {
          PATH: process.env.PATH ?? "",
          HOME: "/nonexistent",
          COSTGATE_DEBUG: "1",
          OS_AUTH_URL: emu.identityUrl,
          OS_APPLICATION_CREDENTIAL_ID: c.id,
          OS_APPLICATION_CREDENTIAL_SECRET: c.secret,
          ...env,
        },
        timeout: 30_000,
      },
      (err, stdout, stderr) => ok({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** copyPackage copies what the command needs (bin, scripts, dist, package.json) and links node_modules. */
function copyPackage(name: string): string {
  const dir = join(tmp, name);
  for (const part of ["bin", "scripts", "dist", "package.json"]) {
    cpSync(join(ROOT, part), join(dir, part), { recursive: true, preserveTimestamps: true });
  }
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  // the stamp carries the node binary's time to the nanosecond; cpSync keeps milliseconds
  const stamp = join("dist", "bundle", "costgate.blob.node");
  execFileSync("touch", ["-r", join(ROOT, stamp), join(dir, stamp)]);
  return dir;
}

describe("bin/costgate", () => {
  it("starts from the snapshot when run as a command, and issues a token", async () => {
    const r = await run(join(ROOT, "bin", "costgate"), ["token"]);
    expect(r.stderr).toMatch(SNAPSHOT);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^gAAAAA/);
  });

  it("works through a symlink, as npm links node_modules/.bin/costgate", async () => {
    const link = join(tmp, "costgate-link");
    symlinkSync(join(ROOT, "bin", "costgate"), link);
    const r = await run(link, ["--version"]);
    expect(r.stdout.trim()).toBe(VERSION);
    expect(r.stderr).toMatch(SNAPSHOT);
  });

  it("passes every argument through untouched (a flag node itself knows, spaces, an empty one)", async () => {
    const r = await run(join(ROOT, "bin", "costgate"), ["token", "--os-auth-url", "", "--inspect", "a b"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/too many arguments|unknown option '--inspect'/);
  });

  it("runs as a node script too (`node bin/costgate`), without the snapshot", async () => {
    const r = await run(process.execPath, [join(ROOT, "bin", "costgate"), "token"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^gAAAAA/);
    expect(r.stderr).not.toMatch(SNAPSHOT);
  });

  it("COSTGATE_NO_BUNDLE=1 runs dist/ (no snapshot, no bundle)", async () => {
    const r = await run(join(ROOT, "bin", "costgate"), ["--version"], { COSTGATE_NO_BUNDLE: "1" });
    expect(r.stdout.trim()).toBe(VERSION);
    expect(r.stderr).not.toMatch(SNAPSHOT);
  });

  it("runs as a node script when NODE_OPTIONS is set (node refuses a snapshot under other V8 flags)", async () => {
    const r = await run(join(ROOT, "bin", "costgate"), ["token"], {
      NODE_OPTIONS: "--max-old-space-size=512",
    });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^gAAAAA/);
    expect(r.stderr).not.toMatch(SNAPSHOT);
  });

  it("finds its files from where the package is, not where it was built", async () => {
    const dir = copyPackage("moved");
    const r = await run(join(dir, "bin", "costgate"), ["token"]);
    expect(r.stderr).toContain(`started from the snapshot ${join(dir, "dist", "bundle", "costgate.blob")}`);
    expect(r.stdout.trim()).toMatch(/^gAAAAA/);
  });

  it("leaves the snapshot alone when another node binary built it", async () => {
    const dir = copyPackage("other-node");
    writeFileSync(join(dir, "dist", "bundle", "costgate.blob.node"), "/opt/another/node\n");
    const r = await run(join(dir, "bin", "costgate"), ["token"]);
    expect(r.stderr).not.toMatch(SNAPSHOT);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^gAAAAA/);
  });

  it("leaves the snapshot alone when the node binary at that path was replaced (an upgrade)", async () => {
    const dir = copyPackage("upgraded-node");
    const stamp = join(dir, "dist", "bundle", "costgate.blob.node");
    const long = new Date("2020-01-01T00:00:00Z");
    utimesSync(stamp, long, long);
    const r = await run(join(dir, "bin", "costgate"), ["token"]);
    expect(r.stderr).not.toMatch(SNAPSHOT);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^gAAAAA/);
  });

  it("runs dist/ when dist/ changed after the snapshot was made (a tsc-only rebuild)", async () => {
    const dir = copyPackage("stale");
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, "dist", "cli", "commands", "token.js"), later, later);
    const r = await run(join(dir, "bin", "costgate"), ["token"]);
    expect(r.stderr).toMatch(/snapshot is older than dist/);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^gAAAAA/);
  });
});
