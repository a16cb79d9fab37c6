/**
 * Token hygiene in CI: `costgate token revoke` (argument, standard input, OS_TOKEN) and `costgate exec`
 * (the token is revoked when the command ends: success, failure, SIGTERM, SIGINT), against the emulator
 * and a real Keystone. The child writes the token it got to a file, so the test can ask Keystone about it.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { checkToken, issueToken } from "../../provider/identity/tokens";
import { emulatorNotice } from "../identity/conformance";
import "../keystone/env";

const BIN = resolve(__dirname, "../../bin/costgate");
const ks = inject("keystone");
let emu: Emulator;
let dir: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), "costgate-exec-"));
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Target {
  authUrl: string;
  id: string;
  secret: string;
}

/** run starts bin/costgate with only the given environment (and PATH); `input` goes to its stdin. */
function start(args: string[], env: Record<string, string>, input?: string) {
  const child = spawn(BIN, args, { env: { PATH: process.env.PATH ?? "", HOME: dir, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  child.stdin.end(input ?? "");
  const done = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>(
    (ok) => child.on("close", (code, signal) => ok({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

/** A node child that writes the OS_TOKEN it got (and whether a secret leaked in) to `file`, then `then`. */
function childScript(file: string, then: string): string[] {
  return [
    process.execPath,
    "-e",
    // (written beside it, then renamed: the test reads it as soon as it exists — never half written)
    `require("fs").writeFileSync(${JSON.stringify(`${file}.part`)}, JSON.stringify({ token: process.env.OS_TOKEN, authUrl: process.env.OS_AUTH_URL, secret: process.env.OS_APPLICATION_CREDENTIAL_SECRET ?? null })); require("fs").renameSync(${JSON.stringify(`${file}.part`)}, ${JSON.stringify(file)}); ${then}`,
  ];
}

async function waitFor(file: string): Promise<void> {
  for (let i = 0; i < 200 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
}

function hygiene(label: string, target: () => Target) {
  const env = () => ({
    OS_AUTH_URL: target().authUrl,
    OS_APPLICATION_CREDENTIAL_ID: target().id,
    OS_APPLICATION_CREDENTIAL_SECRET: target().secret,
  });
  const ep = () => ({ authUrl: target().authUrl });
  const auth = () => ({
    type: "application_credential" as const,
    applicationCredentialId: target().id,
    applicationCredentialSecret: target().secret,
  });
  let n = 0;
  const file = () => join(dir, `${label}-${++n}.json`);
  const got = (f: string) =>
    JSON.parse(readFileSync(f, "utf8")) as { token: string; authUrl: string; secret: null };

  describe(`costgate exec (${label})`, () => {
    it("gives the command OS_TOKEN and OS_AUTH_URL but not the secret, revokes the token, exits 0", async () => {
      const f = file();
      const r = await start(["exec", "--", ...childScript(f, "")], env()).done;
      expect(r.code).toBe(0);
      const seen = got(f);
      expect(seen.authUrl).toBe(target().authUrl);
      expect(seen.secret).toBeNull();
      expect(seen.token.length).toBeGreaterThan(10);
      expect(await checkToken(ep(), seen.token)).toBe(false);
      expect(r.stdout + r.stderr).not.toContain(seen.token);
    });

    it("exits with a failing command's code, and still revokes", async () => {
      const f = file();
      const r = await start(["exec", "--", ...childScript(f, "process.exit(7)")], env()).done;
      expect(r.code).toBe(7);
      expect(await checkToken(ep(), got(f).token)).toBe(false);
    });

    it.each([
      ["SIGTERM", 143],
      ["SIGINT", 130],
    ] as const)("passes %s on to the command, revokes, and exits 128 + the signal", async (signal, code) => {
      const f = file();
      const { child, done } = start(["exec", "--", ...childScript(f, "setTimeout(() => {}, 30000)")], env());
      await waitFor(f);
      expect(await checkToken(ep(), got(f).token)).toBe(true);
      child.kill(signal);
      const r = await done;
      expect(r.code).toBe(code);
      expect(await checkToken(ep(), got(f).token)).toBe(false);
    });

    it("exits 127 for a command that is not there, and revokes what it issued", async () => {
      const r = await start(["exec", "--", "costgate-no-such-command"], env()).done;
      expect(r.code).toBe(127);
      expect(r.stderr).toMatch(/cannot run costgate-no-such-command: not found on PATH/);
    });
  });

  describe(`costgate token revoke (${label})`, () => {
    it.each(["argument", "stdin", "-", "OS_TOKEN"] as const)("revokes a token given as %s", async (how) => {
      const token = (await issueToken(ep(), auth())).id;
      const args = ["token", "revoke", ...(how === "argument" ? [token] : how === "-" ? ["-"] : [])];
      const extra = how === "OS_TOKEN" ? { OS_TOKEN: token } : {};
      const input = how === "stdin" || how === "-" ? `${token}\n` : undefined;
      const r = await start(args, { OS_AUTH_URL: target().authUrl, ...extra }, input).done;
      expect(r.code).toBe(0);
      const notice = label === "emulator" ? emulatorNotice(new URL(target().authUrl).origin) : "";
      expect(r.stderr).toBe(`${notice}costgate: the token is revoked\n`);
      expect(r.stdout).toBe("");
      expect(await checkToken(ep(), token)).toBe(false);
    });

    it("says so for a token already revoked, exit 0; and exit 2 with no token", async () => {
      const token = (await issueToken(ep(), auth())).id;
      await start(["token", "revoke", token], { OS_AUTH_URL: target().authUrl }).done;
      const again = await start(["token", "revoke", token], { OS_AUTH_URL: target().authUrl }).done;
      expect(again.code).toBe(0);
      expect(again.stderr).toMatch(/already invalid/);
      const none = await start(["token", "revoke"], { OS_AUTH_URL: target().authUrl }, "").done;
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/standard input holds no token/);
    });
  });
}

hygiene("emulator", () => {
  const c = emu.seed.applicationCredentials.demo;
  return { authUrl: emu.identityUrl, id: c.id, secret: c.secret };
});

describe.skipIf(!ks)("against a real Keystone", () => {
  hygiene("Keystone", () => ({ authUrl: ks!.authUrl, id: ks!.appCredId, secret: ks!.appCredSecret }));
});
