/**
 * `costgate exec` however a run ends, and with the tools it names:
 * - each of HUP, INT, QUIT and TERM sent to costgate is passed on, the token is revoked (Keystone says 404
 *   after) and costgate exits 128 + the signal — against the emulator and a real Keystone;
 * - a command that ignores the signal is killed after the grace period, its children with it;
 * - a signal while the token is being issued, a Keystone that never answers the revoke, a bad grace period;
 * - the environment the command gets, per credential kind (no credential variable of any name);
 * - the real `openstack` CLI (Debian's python3-openstackclient) runs every example of the README and of
 *   `costgate exec --help`, with an application credential and with a password, against a real Keystone.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { checkToken, validateToken } from "../../provider/identity/tokens";
import "../keystone/env";
import { type HostileServer, startHostileServer, tokenAnswer, wellFormed } from "./server";

const BIN = resolve(__dirname, "../../bin/costgate");
const README = readFileSync(resolve(__dirname, "../../README.md"), "utf8");
const ks = inject("keystone");
const SIGNALS = ["SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM"] as const;
const openstackCli = (process.env.PATH ?? "")
  .split(delimiter)
  .some((d) => d !== "" && existsSync(join(d, "openstack")));

let emu: Emulator;
let hostile: HostileServer;
let dir: string;
let n = 0;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  hostile = await startHostileServer();
  dir = mkdtempSync(join(tmpdir(), "costgate-exec-hostile-"));
});
afterAll(async () => {
  await emu?.close();
  await hostile?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** start runs bin/costgate with only `env` (and PATH, HOME); stdio are pipes, so costgate sees no terminal. */
function start(args: string[], env: Record<string, string>) {
  const t0 = Date.now();
  const child = spawn(BIN, args, { env: { PATH: process.env.PATH ?? "", HOME: dir, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  child.stdin.end();
  const done = new Promise<Ran>((ok) =>
    child.on("close", (code, signal) => ok({ code, signal, stdout, stderr, ms: Date.now() - t0 })),
  );
  return { child, done };
}

/**
 * Node code that writes the text `expr` evaluates to into `file` whole: written beside it, then renamed (the
 * test reads a file as soon as it exists, and a loaded machine may otherwise show it empty or half written —
 * an empty pid file read as pid 0, "alive" for ever).
 */
function writeWhole(file: string, expr: string): string {
  const part = JSON.stringify(`${file}.part`);
  return `require("fs").writeFileSync(${part}, ${expr}); require("fs").renameSync(${part}, ${JSON.stringify(file)});`;
}

/** A node command that writes its environment to a new file, then runs `then`; returns [argv, file]. */
function envDumper(then = ""): [string[], string] {
  const file = join(dir, `env-${++n}.json`);
  const script = `${writeWhole(file, "JSON.stringify(process.env)")} ${then}`;
  return [[process.execPath, "-e", script], file];
}

async function waitFor(file: string): Promise<Record<string, string>> {
  for (let i = 0; i < 400 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 25));
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
}

/** alive: the process exists and is not a zombie (a killed orphan waits for a reaper; in a container, PID 1 may never reap it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // Linux: the state is the field after the parenthesised command name
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

interface Target {
  authUrl: string;
  env: Record<string, string>;
}

function signalMatrix(label: string, target: () => Target) {
  describe(`costgate exec on a signal (${label})`, () => {
    it.each(SIGNALS)("passes %s on, revokes the token and exits 128 + the signal", async (signal) => {
      const [argv, file] = envDumper("setInterval(() => {}, 1000)");
      const { child, done } = start(["exec", "--", ...argv], target().env);
      const token = (await waitFor(file))["OS_TOKEN"] as string;
      expect(await checkToken({ authUrl: target().authUrl }, token)).toBe(true);
      child.kill(signal);
      const r = await done;
      expect(r.code).toBe(128 + constants.signals[signal]);
      expect(await checkToken({ authUrl: target().authUrl }, token)).toBe(false);
      expect(r.stdout + r.stderr).not.toContain(token);
    });

    it("kills a command that ignores TERM after the grace period, its children too, and revokes", async () => {
      const kidFile = join(dir, `kid-${++n}.pid`);
      // the command ignores TERM and starts a child of its own (which would outlive it)
      const [argv, file] = envDumper(
        `process.on("SIGTERM", () => {}); const k = require("child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }); ${writeWhole(kidFile, "String(k.pid)")} setInterval(() => {}, 1000);`,
      );
      const { child, done } = start(["exec", "--grace-period", "0.5", "--", ...argv], target().env);
      const token = (await waitFor(file))["OS_TOKEN"] as string;
      for (let i = 0; i < 200 && !existsSync(kidFile); i++) await new Promise((r) => setTimeout(r, 25));
      const kid = Number(readFileSync(kidFile, "utf8"));
      expect(Number.isInteger(kid) && kid > 1).toBe(true);
      const t0 = Date.now();
      child.kill("SIGTERM");
      const r = await done;
      expect(r.code).toBe(143);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(450);
      expect(Date.now() - t0).toBeLessThan(8000);
      expect(r.stderr).toMatch(/did not end within 0\.5 s of SIGTERM; killing it/);
      expect(await checkToken({ authUrl: target().authUrl }, token)).toBe(false);
      for (let i = 0; i < 200 && alive(kid); i++) await new Promise((res) => setTimeout(res, 25));
      expect(alive(kid)).toBe(false);
    });
  });
}

signalMatrix("emulator", () => {
  const c = emu.seed.applicationCredentials.demo;
  return {
    authUrl: emu.identityUrl,
    env: {
      OS_AUTH_URL: emu.identityUrl,
      OS_APPLICATION_CREDENTIAL_ID: c.id,
      OS_APPLICATION_CREDENTIAL_SECRET: c.secret,
    },
  };
});

describe.skipIf(!ks)("against a real Keystone", () => {
  signalMatrix("Keystone", () => ({
    authUrl: ks!.authUrl,
    env: {
      OS_AUTH_URL: ks!.authUrl,
      OS_APPLICATION_CREDENTIAL_ID: ks!.appCredId,
      OS_APPLICATION_CREDENTIAL_SECRET: ks!.appCredSecret,
    },
  }));
});

describe("costgate exec against a hostile endpoint", () => {
  const appCred = () => ({
    OS_AUTH_URL: hostile.authUrl,
    OS_APPLICATION_CREDENTIAL_ID: "ac-id",
    OS_APPLICATION_CREDENTIAL_SECRET: "ac-secret-canary-0123",
  });

  it("a signal while the token is being issued: the command never starts, the token is revoked, 143", async () => {
    hostile.requests.length = 0;
    hostile.answer = async (req) => {
      if (req.operation === "token") await new Promise((r) => setTimeout(r, 800));
      return wellFormed(req);
    };
    const [argv, file] = envDumper();
    const { child, done } = start(["exec", "--", ...argv], appCred());
    for (let i = 0; i < 200 && !hostile.requests.some((q) => q.operation === "token"); i++)
      await new Promise((r) => setTimeout(r, 10));
    child.kill("SIGTERM");
    const r = await done;
    hostile.answer = wellFormed;
    expect(r.code).toBe(143);
    expect(existsSync(file)).toBe(false);
    const revoke = hostile.requests.find((q) => q.method === "DELETE");
    expect(revoke?.headers["x-subject-token"]).toBe("gAAAAABhostile-token-value-0123456789");
  });

  it("a revoke that never gets an answer ends within 10 s, with the command's code and a line saying so", async () => {
    hostile.answer = (req) => (req.method === "DELETE" ? new Promise(() => {}) : wellFormed(req));
    const [argv] = envDumper("process.exit(3)");
    const r = await start(["exec", "--", ...argv], appCred()).done;
    hostile.answer = wellFormed;
    expect(r.code).toBe(3);
    expect(r.ms).toBeLessThan(14_000);
    expect(r.stderr).toMatch(/the token could not be revoked, and stays valid until/);
    expect(r.stderr).not.toContain("gAAAAABhostile-token-value");
    expect(r.stderr).not.toContain("ac-secret-canary-0123");
  }, 20_000);

  it.each([
    [["--grace-period", "-1"], {}, /--grace-period is "-1"/],
    [["--grace-period", "soon"], {}, /--grace-period is "soon"/],
    [["--grace-period", "3601"], {}, /from 0 to 3600/],
    [[], { COSTGATE_EXEC_GRACE_SECONDS: "1e3" }, /COSTGATE_EXEC_GRACE_SECONDS is "1e3"/],
  ])("refuses a grace period of %j %j with exit 2, before any request", async (flags, extra, message) => {
    hostile.requests.length = 0;
    const r = await start(["exec", ...flags, "--", "true"], { ...appCred(), ...extra }).done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(hostile.requests).toHaveLength(0);
  });

  // Variables a client may read as a credential or a scope, which costgate itself does not read.
  const UNREAD = {
    OS_DOMAIN_ID: "d",
    OS_DEFAULT_DOMAIN: "default",
    OS_SYSTEM_SCOPE: "all",
    OS_TRUST_ID: "trust",
    OS_AUTH_TOKEN: "old-token",
    OS_ACCESS_TOKEN: "oidc",
    OS_CLIENT_SECRET: "oidc-secret",
    OS_PASSCODE: "123456",
    OS_ENDPOINT: "http://elsewhere.invalid",
    os_password: "lower-case",
  };
  const KEEP = {
    OS_REGION_NAME: "RegionTwo",
    OS_INTERFACE: "internal",
    OS_COMPUTE_API_VERSION: "2.79",
    OS_CACERT: "/etc/ssl/certs/ca-certificates.crt",
    UNRELATED: "kept",
  };
  const given = (env: Record<string, string>) =>
    Object.fromEntries(Object.entries(env).filter(([k]) => k.toUpperCase().startsWith("OS_")));

  it("from an application credential: admin_token and the identity endpoint, no scope, no credential", async () => {
    const [argv, file] = envDumper();
    const r = await start(["exec", "--", ...argv], { ...appCred(), ...UNREAD, ...KEEP }).done;
    expect(r.stderr).not.toMatch(/error/); // a warning: OS_CACERT means nothing over http://
    expect(r.code).toBe(0);
    const env = await waitFor(file);
    expect(given(env)).toEqual({
      OS_AUTH_URL: hostile.authUrl,
      OS_TOKEN: "gAAAAABhostile-token-value-0123456789",
      OS_IDENTITY_API_VERSION: "3",
      OS_AUTH_TYPE: "admin_token",
      OS_ENDPOINT: hostile.authUrl,
      OS_REGION_NAME: "RegionTwo",
      OS_INTERFACE: "internal",
      OS_COMPUTE_API_VERSION: "2.79",
      OS_CACERT: "/etc/ssl/certs/ca-certificates.crt",
    });
    expect(env["UNRELATED"]).toBe("kept");
  });

  it.each(["variables", "a clouds.yaml cloud"])(
    "from a password (%s): v3token and the token's project id, and none of the variables it came from",
    async (how) => {
      hostile.answer = (req) =>
        req.operation === "token"
          ? tokenAnswer(`http://${req.headers.host}`, { methods: ["password"] })
          : wellFormed(req);
      const password = {
        OS_USERNAME: "u",
        OS_USER_DOMAIN_NAME: "Default",
        OS_PASSWORD: "pw-canary-0123",
        OS_PROJECT_NAME: "p",
        OS_PROJECT_DOMAIN_ID: "default",
      };
      const cloud = { OS_CLOUD: "ci", OS_CLIENT_CONFIG_FILE: join(dir, `clouds-${++n}.yaml`) };
      writeFileSync(
        cloud.OS_CLIENT_CONFIG_FILE,
        `clouds:\n  ci:\n    region_name: RegionThree\n    auth:\n      auth_url: ${hostile.authUrl}\n      username: u\n      password: pw-canary-0123\n      user_domain_name: Default\n      project_name: p\n      project_domain_id: default\n`,
      );
      const [argv, file] = envDumper();
      const from = how === "variables" ? { OS_AUTH_URL: hostile.authUrl, ...password } : cloud;
      const r = await start(["exec", "--", ...argv], { ...from, ...UNREAD, ...KEEP }).done;
      hostile.answer = wellFormed;
      expect(r.stderr).not.toMatch(/error/);
      expect(r.code).toBe(0);
      expect(given(await waitFor(file))).toEqual({
        OS_AUTH_URL: hostile.authUrl,
        OS_TOKEN: "gAAAAABhostile-token-value-0123456789",
        OS_IDENTITY_API_VERSION: "3",
        OS_AUTH_TYPE: "v3token",
        OS_PROJECT_ID: "p1",
        OS_REGION_NAME: "RegionTwo",
        OS_INTERFACE: "internal",
        OS_COMPUTE_API_VERSION: "2.79",
        OS_CACERT: "/etc/ssl/certs/ca-certificates.crt",
      });
    },
  );
});

/** The `costgate exec -- openstack ...` lines of the README and of `costgate exec --help`, as written. */
function documentedExamples(): { line: string; passwordOnly: boolean }[] {
  const help = execFileSync(BIN, ["exec", "--help"], { encoding: "utf8" });
  const lines = [...`${README}\n${help}`.matchAll(/^\s*(costgate exec -- openstack[^#\n]*?)\s*(#.*)?$/gm)];
  const seen = new Map<string, boolean>();
  for (const [, line, comment] of lines) {
    const passwordOnly = /a password credential/.test(comment ?? "");
    seen.set(line as string, (seen.get(line as string) ?? passwordOnly) && passwordOnly);
  }
  return [...seen].map(([line, passwordOnly]) => ({ line, passwordOnly }));
}

describe.skipIf(!ks || !openstackCli)(
  "the real openstack CLI under costgate exec, every documented example",
  () => {
    const kinds = () => ({
      "application credential": {
        OS_AUTH_URL: ks!.authUrl,
        OS_AUTH_TYPE: "v3applicationcredential",
        OS_APPLICATION_CREDENTIAL_ID: ks!.appCredId,
        OS_APPLICATION_CREDENTIAL_SECRET: ks!.appCredSecret,
      },
      password: {
        OS_AUTH_URL: ks!.authUrl,
        OS_USERNAME: ks!.userName,
        OS_USER_DOMAIN_NAME: ks!.domainName,
        OS_PASSWORD: ks!.password,
        OS_PROJECT_NAME: ks!.projectName,
        OS_PROJECT_DOMAIN_ID: ks!.domainId,
      },
    });

    it("finds the examples: region list for any credential, catalog list for a password", () => {
      const examples = documentedExamples();
      expect(examples).toContainEqual({
        line: "costgate exec -- openstack region list",
        passwordOnly: false,
      });
      expect(examples).toContainEqual({
        line: "costgate exec -- openstack catalog list",
        passwordOnly: true,
      });
    });

    /** A directory first on PATH with an `openstack` that writes its environment to `file`, then runs the real one. */
    function shim(file: string): string {
      const bin = mkdtempSync(join(dir, "shim-"));
      const real = execFileSync("sh", ["-c", "command -v openstack"], { encoding: "utf8" }).trim();
      writeFileSync(
        join(bin, "openstack"),
        `#!/bin/sh\n${JSON.stringify(process.execPath)} -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify(process.env))' ${JSON.stringify(file)}\nexec ${JSON.stringify(real)} "$@"\n`,
        { mode: 0o755 },
      );
      return bin;
    }

    for (const kind of ["application credential", "password"] as const) {
      it(`runs each example as written with ${kind === "password" ? "a password" : "an application credential"}, and revokes`, async () => {
        for (const { line, passwordOnly } of documentedExamples()) {
          if (passwordOnly && kind !== "password") continue;
          const file = join(dir, `openstack-${++n}.json`);
          const PATH = `${shim(file)}${delimiter}${process.env.PATH ?? ""}`;
          const r = await start(line.split(/\s+/).slice(1), { ...kinds()[kind], PATH }).done;
          expect(r.stderr, `${kind}: ${line}`).toBe("");
          expect(r.code, `${kind}: ${line}`).toBe(0);
          if (line.endsWith("region list")) expect(r.stdout).toContain(ks!.regionId);
          if (line.endsWith("catalog list")) expect(r.stdout).toMatch(/\| keystone \| identity \|/);
          const token = (await waitFor(file))["OS_TOKEN"] as string;
          expect(await validateToken({ authUrl: ks!.authUrl }, token)).toBeNull();
        }
      }, 120_000);
    }

    it("an application-credential token: gophercloud's pass-through (validate with itself) gets the catalog", async () => {
      const [argv, file] = envDumper("setInterval(() => {}, 1000)");
      const { child, done } = start(["exec", "--", ...argv], kinds()["application credential"]);
      const env = await waitFor(file);
      const info = await validateToken({ authUrl: ks!.authUrl }, env["OS_TOKEN"] as string);
      expect(info?.catalog.map((s) => s.type)).toContain("identity");
      expect(Object.keys(env).filter((k) => /^OS_(PROJECT|TENANT|DOMAIN|USER)/.test(k))).toEqual([]);
      child.kill("SIGTERM");
      expect((await done).code).toBe(143);
    });
  },
);
