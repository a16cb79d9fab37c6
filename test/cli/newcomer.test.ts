/**
 * The newcomer's list of issue 13, each item as it was seen: the command run as a user runs it, against
 * the emulator, with the message and exit code it must give now.
 */
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { runCli } from "../helpers/cli";
import { bash } from "../helpers/shell";

const BIN = resolve(__dirname, "../../bin/costgate");
let emu: Emulator;
let billing: Record<string, string>;
let identity: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  billing = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token };
  const c = emu.seed.applicationCredentials.demo;
  identity = {
    OS_AUTH_URL: emu.identityUrl,
    OS_APPLICATION_CREDENTIAL_ID: c.id,
    OS_APPLICATION_CREDENTIAL_SECRET: c.secret,
  };
});
afterAll(async () => {
  await emu?.close();
});

function sh(script: string, env: Record<string, string>) {
  return bash(script, { env: { COSTGATE: BIN, ...env } });
}

describe("exit codes and messages", () => {
  it("bare costgate is a usage error: help on stderr, exit 2; --help is help on stdout, exit 0", async () => {
    const bare = await runCli([], {});
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toMatch(/^Usage: costgate/);
    const help = await runCli(["--help"], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: costgate/);
  });

  it("commander's own errors carry the costgate: prefix", async () => {
    const r = await runCli(["balance", "--bogus"], billing);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^costgate: error: unknown option '--bogus'/);
  });

  it("a full disk is an I/O error (exit 4) with a message, not a stack trace", async () => {
    const r = await sh('"$COSTGATE" balance --project-id 4242 --json > /dev/full', billing);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^costgate: error: cannot write the output \(ENOSPC\): the disk is full/m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    ["demo", ["demo", "--html", "/nope/x.html"]],
    ["report", ["report", "--project-id", "4242", "--html", "/nope/x.html"]],
  ])("%s --html in a missing folder fails alike, before anything runs (exit 2)", async (_name, args) => {
    const r = await runCli(args, billing);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "costgate: error: --html: the folder /nope does not exist; create it or choose another file\n",
    );
  });

  it("caps --timeout at what a timer can hold", async () => {
    const r = await runCli(["balance", "--project-id", "4242", "--timeout", "3000000"], billing);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--timeout: "3000000" seconds is longer than a timer can hold; give at most 2147483/,
    );
  });
});

describe("values echoed as given, and named where they came from", () => {
  it("echoes a project id too large to be exact as typed", async () => {
    const r = await runCli(["balance", "--project-id", "99999999999999999999"], billing);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--project-id: "99999999999999999999" is too large for a project id/);
  });

  it.each([
    [{ COSTGATE_PROJECT_ID: "-1" }, /^costgate: error: COSTGATE_PROJECT_ID: "-1" is not a project id/],
    [{ COSTGATE_PROJECT_ID: "4242", COSTGATE_PRODUCT: "bogus" }, /^costgate: error: COSTGATE_PRODUCT: /],
  ])("names the environment variable %j", async (env, message) => {
    const r = await runCli(["balance"], { ...billing, ...env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it.each([
    ["https://user:s3cr3t@console.example", /carries user info/],
    ["https://console.example/?tenant=1", /carries a query or fragment/],
  ])("refuses --billing-url %s instead of dropping part of it, without echoing it", async (url, message) => {
    const r = await runCli(["balance", "--project-id", "4242", "--billing-url", url], billing);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain("s3cr3t");
  });

  it("names the flag, not the library's argument, when it refuses a billing address", async () => {
    const r = await runCli(
      ["balance", "--project-id", "4242", "--billing-url", "javascript:alert(1)"],
      billing,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^costgate: error: --billing-url: must be an http\(s\) URL, not javascript:/);
  });
});

describe("TLS settings", () => {
  it("refuses OS_INSECURE=maybe instead of reading it as false", async () => {
    const r = await runCli(["token"], { ...identity, OS_INSECURE: "maybe" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/OS_INSECURE: "maybe" is not true or false/);
  });

  it("names an OS_CACERT that is not PEM", async () => {
    const r = await runCli(["token"], { ...identity, OS_CACERT: resolve(__dirname, "../../package.json") });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /cacert: .*package\.json is not a PEM bundle \(no -----BEGIN CERTIFICATE----- line\)/,
    );
  });

  it("says that --insecure does nothing on an http:// URL, in the command's style", async () => {
    const r = await runCli(["token", "--insecure"], identity);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^costgate: warning: the identity URL is http:\/\/, so .* have no effect/m);
    expect(r.stderr).not.toMatch(/\(node:\d+\)/);
  });
});

describe("usage and balance agree", () => {
  it.each([["balance"], ["usage", "--from", "2026-11-01"]])(
    "%s for a product the project lacks: no data, check productId, exit 3",
    async (...args) => {
      const r = await runCli([...args, "--project-id", "4242", "--product", "vmware"], billing);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/no data — check productId/);
    },
  );
});

describe("the emulator command", () => {
  it("names a taken port and suggests --port 0 (exit 2)", async () => {
    const r = await runCli(["emulator", "--port", new URL(emu.url).port], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--port \d+: the port is taken on 127\.0\.0\.1 \(EADDRINUSE\); choose another, or --port 0/,
    );
  });

  it("prints OS_AUTH_URL with the application credential, warns about 0.0.0.0, and exits 0 at once on SIGTERM", async () => {
    const { spawn } = await import("node:child_process");
    const child = spawn(BIN, ["emulator", "--port", "0", "--host", "0.0.0.0"], {
      env: { PATH: process.env.PATH ?? "" },
    });
    let out = "";
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    await new Promise<void>((ok) =>
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("COSTGATE_BILLING_URL")) ok();
      }),
    );
    expect(out).toMatch(
      /^export OS_AUTH_URL='http:\/\/127\.0\.0\.1:\d+\/v3' OS_AUTH_TYPE=v3applicationcredential/m,
    );
    expect(err).toMatch(/^costgate: warning: --host 0\.0\.0\.0 listens on every interface/);
    const started = Date.now();
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((ok) => child.on("exit", (c) => ok(c)));
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe("no input makes the run unbounded", () => {
  it("refuses a project list the run's request cap cannot cover, before any request", async () => {
    const before = emu.requests.length;
    const ids = Array.from({ length: 300 }, (_, i) => i + 1).join(",");
    const r = await runCli(["check", "--project-id", ids, "--min-balance", "1"], billing);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /300 projects need at least 600 requests, more than the run's cap of 500 \(--max-requests\)/,
    );
    expect(emu.requests.length).toBe(before);
  });
});
