/**
 * Canaries through Pulumi's dynamic-provider host (COSTGATE_DEBUG=1): the serialized `__provider`,
 * every answer of Check/Create/Diff/Update/Read/Delete that is not stored secret, the gRPC errors
 * of wrong credentials, 5xx and timeouts, and everything the host process printed.
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { loadDist, type ProviderHost, startProviderHost } from "../helpers/provider-host";
import { CanaryScan, canary, errorTexts, printTally } from "./canary";
import { lifeOverHost, urnOf } from "./host-flow";
import { engineStore, type Registered, register } from "./register";

const require = createRequire(import.meta.url);
type Dist = typeof import("../../provider");

const scan = new CanaryScan();
let emu: Emulator;
let host: ProviderHost;
let appCred: Registered;
let passwordReg: Registered;
let credId = "";
let userName = "";

async function registerBoth(secret: string, pw: string, extra: Record<string, unknown> = {}) {
  const pulumi = require("@pulumi/pulumi");
  const { AppCredentialToken, PasswordToken } = loadDist<Dist>();
  const [a, p] = await register(() => {
    new AppCredentialToken("ci", {
      authUrl: emu.identityUrl,
      applicationCredentialId: credId,
      applicationCredentialSecret: pulumi.secret(secret),
      ...extra,
    });
    new PasswordToken("ops", {
      authUrl: emu.identityUrl,
      username: userName,
      userDomainName: "Default",
      password: pulumi.secret(pw),
      projectId: emu.seed.projects.demo.id,
      ...extra,
    });
  }, 2);
  return { a: a!, p: p! };
}

/** gRPC errors of the host: message, details, metadata, cause chain. */
async function hostFailure(call: () => Promise<unknown>): Promise<void> {
  const e = await call().then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e, "the host call should fail").toBeInstanceOf(Error);
  scan.expectClean("host gRPC errors", errorTexts(e));
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  credId = emu.addApplicationCredential({ secret: scan.add("appCredSecret", canary("appcred")) }).id;
  userName = emu.addUser({ password: scan.add("password", canary("pässwörd")) }).name;
  scan.add("wrongSecret", canary("wrongsecret"));
  scan.add("wrongPassword", canary("wrongpässwörd"));
  scan.add("rotatedSecret", canary("rotated"));
  host = await startProviderHost({ COSTGATE_DEBUG: "1" });
  await host.configure({});
  ({ a: appCred, p: passwordReg } = await registerBoth(scan.get("appCredSecret"), scan.get("password")));
}, 60_000);
afterAll(async () => {
  const out = host?.output() ?? "";
  await host?.close();
  await emu?.close();
  expect(out, "the debug log should be on").toMatch(/costgate: -> POST/);
  scan.expectClean("host process stdout/stderr (COSTGATE_DEBUG=1)", out);
  printTally("test/secrets/provider-host.test.ts", scan);
});
beforeEach(() => emu.resetKnobs());

describe("the dynamic-provider host", () => {
  it("serializes __provider without a credential", () => {
    for (const r of [appCred, passwordReg]) {
      expect(String(r.inputs.__provider)).toMatch(/costgate\/dist\/provider\/resources\/token-impl/);
      scan.expectClean("serialized __provider", String(r.inputs.__provider));
    }
  });

  it("answers Check, Create, Diff, Update, Read and Delete with no canary outside the secret outputs", async () => {
    for (const [r, rotate] of [
      [appCred, { key: "applicationCredentialSecret", value: scan.get("rotatedSecret") }],
      [passwordReg, { key: "password", value: scan.get("rotatedSecret") }],
    ] as const) {
      const life = await lifeOverHost(host, r, rotate);
      scan.add(`token:${r.name}`, life.token);
      const plaintext = [life.inputs, ...life.outputs].map((o) => JSON.stringify(engineStore(o, r).plain));
      scan.expectClean("host answers: plaintext outputs and inputs", plaintext);
      scan.expectClean("host answers: check failures, diffs, ids", JSON.stringify(life.other));
    }
  });

  it("fails with no canary for wrong credentials, 5xx and timeouts", async () => {
    const wrong = await registerBoth(scan.get("wrongSecret"), scan.get("wrongPassword"));
    for (const r of [wrong.a, wrong.p]) {
      const urn = urnOf(r.type.split(":").pop() ?? "", r.name);
      await hostFailure(() => host.create(urn, r.inputs));
    }
    const urn = urnOf("AppCredentialToken", "ci");
    const { id, properties } = await host.create(urn, appCred.inputs);
    scan.add("token:5xx", String(properties.token));
    for (const knobs of [{ status: 500 }, { status: 503 }, { status: 502, htmlError: true }]) {
      Object.assign(emu.knobs.identity, knobs);
      await hostFailure(() => host.create(urn, appCred.inputs));
      await hostFailure(() => host.create(urnOf("PasswordToken", "ops"), passwordReg.inputs));
      await hostFailure(() => host.read(id, urn, properties));
      await hostFailure(() => host.delete(id, urn, properties));
      emu.resetKnobs();
    }
    const slow = await registerBoth(scan.get("appCredSecret"), scan.get("password"), { timeoutSeconds: 1 });
    emu.knobs.identity.latencyMs = 1_500;
    await hostFailure(() => host.create(urn, slow.a.inputs));
    await hostFailure(() => host.read(id, urn, { ...properties, timeoutSeconds: 1 }));
    emu.resetKnobs();
    await host.delete(id, urn, properties);
  });
});
