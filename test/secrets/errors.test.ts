/**
 * Canaries in library errors: wrong credentials, 401s, 5xx, timeouts, and an endpoint that echoes
 * the request in its error bodies. Each error is scanned as a caller could print it (message,
 * stack, JSON.stringify and util.inspect down the cause chain), and so is the COSTGATE_DEBUG log.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { getBalance, getConsumption } from "../../provider/billing/client";
import { isAuthError, isCostgateError, isHttpError, isTimeoutError } from "../../provider/errors";
import type { TransportOptions } from "../../provider/http";
import type { AuthMethod } from "../../provider/identity/auth";
import { checkToken, issueToken, revokeToken, validateToken } from "../../provider/identity/tokens";
import { resolveIdentitySettings } from "../../provider/settings";
import { CanaryScan, canary, errorTexts, printTally } from "./canary";
import { type EchoServer, startEchoServer } from "./echo-server";

const scan = new CanaryScan();
let emu: Emulator;
let echo: EchoServer;
let debugLog = "";
let token = "";
const realWrite = process.stderr.write.bind(process.stderr);
const fast: TransportOptions = { retry: false, timeouts: { headersMs: 300, totalMs: 300 } };

const appCred = (secret = scan.get("appCredSecret"), id = cred().id): AuthMethod => ({
  type: "application_credential",
  applicationCredentialId: id,
  applicationCredentialSecret: secret,
});
const password = (pw = scan.get("password")): AuthMethod => ({
  type: "password",
  userName: user().name,
  userDomainName: "Default",
  password: pw,
  projectId: emu.seed.projects.demo.id,
});
let cred: () => { id: string };
let user: () => { name: string };
const identity = (url = emu.identityUrl) => ({ authUrl: url, transport: fast });
const billing = (tok = scan.get("billingToken"), url = emu.billingUrl) => ({
  baseUrl: url,
  token: tok,
  transport: fast,
});

/** outcome runs a call that may fail (a 401 on validate means "gone"), and scans what it gave. */
async function outcome(call: () => Promise<unknown>): Promise<void> {
  const texts = await call().then(
    (v) => [JSON.stringify(v) ?? ""],
    (e: unknown) => errorTexts(e),
  );
  scan.expectClean("library errors", texts);
}

/** failure runs a call that must fail, and scans the error. */
async function failure(what: string, call: () => Promise<unknown>): Promise<Error> {
  const e = await call().then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e, `${what} should fail`).toBeInstanceOf(Error);
  expect(isCostgateError(e), `${what}: ${String(e)}`).toBe(true);
  scan.expectClean("library errors", errorTexts(e));
  return e as Error;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  echo = await startEchoServer();
  const c = emu.addApplicationCredential({ secret: scan.add("appCredSecret", canary("appcred")) });
  const u = emu.addUser({ password: scan.add("password", canary("pässwörd")) });
  cred = () => c;
  user = () => u;
  emu.seed.billing.tokens.push({
    token: scan.add("billingToken", canary("billing")),
    name: "canary",
    role: "Accountant",
  });
  scan.add("wrongSecret", canary("wrongsecret"));
  scan.add("wrongPassword", canary("wrongpässwörd"));
  scan.add("wrongBillingToken", canary("wrongbilling"));
  process.env.COSTGATE_DEBUG = "1";
  process.stderr.write = ((chunk: string | Uint8Array) => {
    debugLog += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  token = scan.add("token", (await issueToken(identity(), appCred())).id);
});
afterAll(async () => {
  process.stderr.write = realWrite;
  delete process.env.COSTGATE_DEBUG;
  // The debug log saw every request of this file, the failing ones included.
  expect(debugLog).toMatch(/costgate: -> POST/);
  scan.expectClean("debug log (library)", debugLog);
  printTally("test/secrets/errors.test.ts", scan);
  await echo?.close();
  await emu?.close();
});
beforeEach(() => {
  emu.resetKnobs();
  echo.status = 401;
  echo.html = false;
});

describe("identity errors carry no credential or token", () => {
  it("wrong secret, wrong password, unknown credential id", async () => {
    expect(
      isAuthError(
        await failure("wrong secret", () => issueToken(identity(), appCred(scan.get("wrongSecret")))),
      ),
    ).toBe(true);
    expect(
      isAuthError(
        await failure("wrong password", () => issueToken(identity(), password(scan.get("wrongPassword")))),
      ),
    ).toBe(true);
    await failure("unknown id", () => issueToken(identity(), appCred(undefined, "0".repeat(32))));
  });

  it("401 validating with a dead auth token; 5xx and HTML 502 on issue, validate and revoke", async () => {
    await failure("validate 401", () => validateToken(identity(), token, scan.get("wrongSecret")));
    for (const knobs of [{ status: 500 }, { status: 503 }, { status: 502, htmlError: true }]) {
      Object.assign(emu.knobs.identity, knobs);
      await failure("issue 5xx", () => issueToken(identity(), appCred()));
      await failure("issue 5xx", () => issueToken(identity(), password()));
      await failure("validate 5xx", () => validateToken(identity(), token));
      await failure("check 5xx", () => checkToken(identity(), token));
      await failure("revoke 5xx", () => revokeToken(identity(), token));
      emu.resetKnobs();
    }
  });

  it("timeouts on issue and validate", async () => {
    emu.knobs.identity.latencyMs = 1_000;
    expect(isTimeoutError(await failure("issue timeout", () => issueToken(identity(), appCred())))).toBe(
      true,
    );
    await failure("validate timeout", () => validateToken(identity(), token));
  });

  it("an endpoint that echoes the request body and headers in its errors", async () => {
    const url = `${echo.url}/v3`;
    for (const [status, html] of [
      [400, false],
      [401, false],
      [500, false],
      [502, true],
    ] as const) {
      echo.status = status;
      echo.html = html;
      await failure(`echo ${status} issue`, () => issueToken(identity(url), appCred()));
      await failure(`echo ${status} issue`, () => issueToken(identity(url), password()));
      await outcome(() => validateToken(identity(url), token));
      await outcome(() => checkToken(identity(url), token));
      await outcome(() => revokeToken(identity(url), token));
      // another token as the caller: a 401 is an error then
      await failure(`echo ${status} validate`, () =>
        validateToken(identity(url), token, scan.get("wrongSecret")),
      );
    }
  });
});

describe("billing errors carry no access token", () => {
  const q = { projectId: 4242 };
  const period = { ...q, from: "2026-01-01", to: "2026-01-03" };

  it("a wrong token: 401 naming the fix", async () => {
    const e = await failure("401", () => getBalance(billing(scan.get("wrongBillingToken")), q));
    expect(isAuthError(e)).toBe(true);
    expect(e.message).toMatch(/X-User-Token/);
  });

  it("5xx, an HTML 502, GraphQL errors and timeouts", async () => {
    for (const knobs of [{ status: 500 }, { status: 503 }, { status: 502, htmlError: true }]) {
      Object.assign(emu.knobs.billing, knobs);
      await failure("balance 5xx", () => getBalance(billing(), q));
      await failure("usage 5xx", () => getConsumption(billing(), period));
      emu.resetKnobs();
    }
    emu.knobs.billing.graphqlErrors = ["internal error"];
    await failure("graphql errors", () => getBalance(billing(), q));
    emu.resetKnobs();
    emu.knobs.billing.latencyMs = 1_000;
    expect(isTimeoutError(await failure("timeout", () => getBalance(billing(), q)))).toBe(true);
  });

  it("an endpoint that echoes X-User-Token in its errors (401, 500, 200 with GraphQL errors, HTML)", async () => {
    for (const [status, html] of [
      [401, false],
      [500, false],
      [200, false],
      [502, true],
    ] as const) {
      echo.status = status;
      echo.html = html;
      const e = await failure(`echo ${status}`, () => getBalance(billing(undefined, echo.url), q));
      if (status !== 200 && !html) expect(isHttpError(e)).toBe(true);
      await failure(`echo ${status} usage`, () => getConsumption(billing(undefined, echo.url), period));
    }
  });
});

describe("settings errors carry no credential", () => {
  it("a clouds.yaml or secure.yaml that does not parse, with a secret on the broken line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "costgate-secrets-yaml-"));
    try {
      const secret = scan.get("appCredSecret");
      const pw = scan.get("password");
      const broken = [
        `clouds:\n  prod:\n    auth:\n      application_credential_secret: ${secret}: x\n`,
        `clouds:\n  prod:\n    auth: {password: "${pw}}\n`,
        `clouds:\n\tprod: {auth: {password: ${pw}}}\n`,
      ];
      const good = "clouds:\n  prod:\n    auth:\n      auth_url: http://127.0.0.1:1/v3\n";
      for (const [i, text] of broken.entries()) {
        for (const kind of ["clouds", "secure"] as const) {
          const clouds = join(dir, `clouds-${i}-${kind}.yaml`);
          const secure = join(dir, `secure-${i}-${kind}.yaml`);
          writeFileSync(clouds, kind === "clouds" ? text : good);
          writeFileSync(secure, kind === "secure" ? text : "clouds: {}\n");
          const env = { OS_CLOUD: "prod", OS_CLIENT_CONFIG_FILE: clouds, OS_CLIENT_SECURE_FILE: secure };
          await failure(`broken ${kind}.yaml`, async () => resolveIdentitySettings({}, env));
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
