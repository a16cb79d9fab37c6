/**
 * bin/costgate is a plain node script: it behaves the same run as a command, through a symlink (as
 * npm links node_modules/.bin/costgate), as `node bin/costgate`, through a shim that runs node by its
 * full path (Windows' cmd-shim, volta, asdf), under any NODE_OPTIONS, and copied elsewhere with other
 * file times (npm stamps extracted files with the install time). The installed tarball is proven in
 * test/install.
 */
import { execFile } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { emulatorNotice } from "../identity/conformance";

const ROOT = resolve(__dirname, "../..");
const BIN = join(ROOT, "bin", "costgate");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

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

const TOKEN = /^gAAAAA/;

describe("bin/costgate", () => {
  it("is a plain node script", () => {
    const text = readFileSync(BIN, "utf8");
    expect(text.split("\n")[0]).toBe("#!/usr/bin/env node");
    expect(text).not.toMatch(/snapshot|\$PATH|readlink/);
  });

  it("issues a token when run as a command", async () => {
    const r = await run(BIN, ["token"]);
    expect(r.stderr).toBe(emulatorNotice(emu.url));
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(TOKEN);
  });

  it("works through a symlink, as npm links node_modules/.bin/costgate", async () => {
    const link = join(tmp, "costgate-link");
    symlinkSync(BIN, link);
    const r = await run(link, ["--version"]);
    expect(r.stdout.trim()).toBe(VERSION);
  });

  it("works as `node bin/costgate`, as Windows' cmd-shim and version-manager shims run it", async () => {
    const r = await run(process.execPath, [BIN, "token"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(TOKEN);
  });

  it("works through a shim script on PATH named node (volta, asdf, nvm-windows)", async () => {
    const shims = join(tmp, "shims");
    mkdirSync(shims, { recursive: true });
    writeFileSync(join(shims, "node"), `#!/bin/sh\nexec "${process.execPath}" "$@"\n`);
    chmodSync(join(shims, "node"), 0o755);
    const r = await run(BIN, ["token"], { PATH: `${shims}:${process.env.PATH ?? ""}` });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(TOKEN);
  });

  it("passes every argument through untouched (a flag node itself knows, spaces, an empty one)", async () => {
    const r = await run(BIN, ["token", "--os-auth-url", "", "--inspect", "a b"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/too many arguments|unknown option '--inspect'/);
  });

  it("behaves the same under NODE_OPTIONS", async () => {
    const r = await run(BIN, ["token"], { NODE_OPTIONS: "--max-old-space-size=512 --no-warnings" });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(TOKEN);
  });

  it("runs from a copy whose files have other times (as npm extracts a tarball)", async () => {
    const dir = join(tmp, "moved");
    for (const part of ["bin", "dist", "package.json"])
      cpSync(join(ROOT, part), join(dir, part), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    const long = new Date("1985-10-26T08:15:00Z");
    utimesSync(join(dir, "dist", "cli", "main.js"), long, long);
    const r = await run(join(dir, "bin", "costgate"), ["token"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(TOKEN);
  });
});
