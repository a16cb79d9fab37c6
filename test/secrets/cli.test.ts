/**
 * Canaries through the costgate command with COSTGATE_DEBUG=1 (its most verbose): the token is on
 * stdout only where `costgate token` is asked for it; no credential or token anywhere else, on
 * success or on wrong credentials, 5xx, timeouts and an endpoint that echoes the request.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { runCli } from "../helpers/cli";
import { addBillingCanaries, CanaryScan, canary, printTally } from "./canary";
import { type EchoServer, startEchoServer } from "./echo-server";

const scan = new CanaryScan();
let emu: Emulator;
let echo: EchoServer;
let appCredEnv: Record<string, string>;
let passwordEnv: Record<string, string>;
let billingEnv: Record<string, string>;

/** cli runs the command with debug logging and scans stdout and stderr. */
async function cli(args: string[], env: Record<string, string>, expectCode: number) {
  const r = await runCli(args, { COSTGATE_DEBUG: "1", ...env });
  expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(expectCode);
  expect(r.stderr).toMatch(/costgate: (->|error)/);
  scan.expectClean("CLI stderr", r.stderr);
  return r;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  echo = await startEchoServer();
  const cred = emu.addApplicationCredential({ secret: scan.add("appCredSecret", canary("appcred")) });
  const user = emu.addUser({ password: scan.add("password", canary("pässwörd")) });
  const billingToken = addBillingCanaries(scan, emu);
  appCredEnv = {
    OS_AUTH_URL: emu.identityUrl,
    OS_APPLICATION_CREDENTIAL_ID: cred.id,
    OS_APPLICATION_CREDENTIAL_SECRET: scan.get("appCredSecret"),
  };
  passwordEnv = {
    OS_AUTH_URL: emu.identityUrl,
    OS_USERNAME: user.name,
    OS_USER_DOMAIN_NAME: "Default",
    OS_PASSWORD: scan.get("password"),
    OS_PROJECT_ID: emu.seed.projects.demo.id,
  };
  billingEnv = { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: billingToken };
});
afterAll(async () => {
  printTally("test/secrets/cli.test.ts", scan);
  await echo?.close();
  await emu?.close();
});

describe("costgate token", () => {
  it("prints the token alone on stdout, and nothing secret on stderr", async () => {
    for (const env of [appCredEnv, passwordEnv]) {
      const r = await cli(["token"], env, 0);
      const token = scan.add(`token:${env.OS_PASSWORD ? "password" : "appcred"}`, r.stdout.trim());
      expect(r.stdout).toBe(`${token}\n`);
    }
    const r = await cli(["token", "--json"], appCredEnv, 0);
    const { token, ...rest } = JSON.parse(r.stdout);
    scan.add("token:json", token);
    scan.expectClean("CLI stdout (token --json, besides the token field)", JSON.stringify(rest));
  });

  it("takes the credential from flags without echoing it", async () => {
    const { OS_APPLICATION_CREDENTIAL_SECRET: secret, ...env } = appCredEnv;
    const r = await cli(["token", "--os-application-credential-secret", secret!], env, 0);
    scan.add("token:flags", r.stdout.trim());
    const { OS_PASSWORD: pw, ...penv } = passwordEnv;
    await cli(["token", "--os-password", pw!], penv, 0);
  });

  it("reads the secret from secure.yaml without echoing it, also when the file does not parse", async () => {
    const dir = mkdtempSync(join(tmpdir(), "costgate-secrets-clouds-"));
    try {
      const files = {
        OS_CLIENT_CONFIG_FILE: join(dir, "clouds.yaml"),
        OS_CLIENT_SECURE_FILE: join(dir, "secure.yaml"),
      };
      const id = appCredEnv.OS_APPLICATION_CREDENTIAL_ID;
      writeFileSync(
        files.OS_CLIENT_CONFIG_FILE,
        `clouds:\n  prod:\n    auth:\n      auth_url: ${emu.identityUrl}\n      application_credential_id: ${id}\n`,
      );
      const secret = scan.get("appCredSecret");
      writeFileSync(
        files.OS_CLIENT_SECURE_FILE,
        `clouds:\n  prod:\n    auth:\n      application_credential_secret: ${secret}\n`,
      );
      scan.add("token:clouds", (await cli(["token", "--os-cloud", "prod"], files, 0)).stdout.trim());
      writeFileSync(
        files.OS_CLIENT_SECURE_FILE,
        `clouds:\n  prod:\n    auth:\n      application_credential_secret: ${secret}: x\n`,
      );
      const r = await cli(["token", "--os-cloud", "prod"], files, 2);
      expect(r.stderr).toMatch(/cannot read this YAML file/);
      scan.expectClean("CLI stdout", r.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("exits 3 without a canary on wrong credentials, 5xx and timeouts", async () => {
    const wrong = scan.get("wrong");
    await cli(["token"], { ...appCredEnv, OS_APPLICATION_CREDENTIAL_SECRET: wrong }, 3);
    await cli(["token"], { ...passwordEnv, OS_PASSWORD: wrong }, 3);
    for (const knobs of [{ status: 500 }, { status: 503 }, { status: 502, htmlError: true }]) {
      Object.assign(emu.knobs.identity, knobs);
      for (const env of [appCredEnv, passwordEnv])
        scan.expectClean("CLI stdout", (await cli(["token"], env, 3)).stdout);
      emu.resetKnobs();
    }
    emu.knobs.identity.latencyMs = 1_500;
    await cli(["token", "--timeout", "1"], appCredEnv, 3);
    emu.resetKnobs();
    for (const env of [appCredEnv, passwordEnv]) {
      for (const status of [400, 401, 500]) {
        echo.status = status;
        await cli(["token"], { ...env, OS_AUTH_URL: `${echo.url}/v3` }, 3);
      }
    }
  });
});

describe("costgate balance, usage and check", () => {
  const period = ["--from", "2026-01-01", "--to", "2026-01-31"];
  const commands = [
    ["balance", "--project-id", "4242", "--json"],
    ["usage", "--project-id", "4242", ...period, "--json"],
    ["usage", "--project-id", "4242", ...period, "--csv"],
    ["check", "--project-id", "4242", "--min-balance", "1", "--json"],
  ];

  it("print no access token on success", async () => {
    for (const args of commands) scan.expectClean("CLI stdout", (await cli(args, billingEnv, 0)).stdout);
  });

  it("exit 3 without a canary on a wrong token, 5xx, timeouts and an echoing endpoint", async () => {
    for (const args of commands) {
      await cli(args, { ...billingEnv, COSTGATE_BILLING_TOKEN: scan.get("wrong") }, 3);
      emu.knobs.billing.status = 503;
      await cli(args, billingEnv, 3);
      emu.resetKnobs();
      for (const status of [401, 500, 200]) {
        echo.status = status;
        const r = await cli(args, { ...billingEnv, COSTGATE_BILLING_URL: echo.url }, 3);
        scan.expectClean("CLI stdout", r.stdout);
      }
    }
    emu.knobs.billing.latencyMs = 1_500;
    await cli(["balance", "--project-id", "4242", "--timeout", "1"], billingEnv, 3);
    emu.resetKnobs();
  });
});
