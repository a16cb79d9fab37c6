/**
 * Pulumi state: the registration's additionalSecretOutputs and secret inputs, captured from the
 * mock monitor's RegisterResource request, applied as the engine applies them to what the host's
 * Check/Create/Update/Read return. The plaintext part of state holds no canary — whether the
 * credential came as a secret, a plain string or from OS_* variables — and the secret part holds
 * the token and the credential.
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { loadDist, type ProviderHost, startProviderHost } from "../helpers/provider-host";
import { CanaryScan, canary, printTally } from "./canary";
import { lifeOverHost } from "./host-flow";
import { engineStore, type Registered, register } from "./register";

const require = createRequire(import.meta.url);
type Dist = typeof import("../../provider");

const scan = new CanaryScan();
let emu: Emulator;
let host: ProviderHost;
let credId = "";
let userName = "";

/** How the credential reaches the resource. */
type Source = "secret" | "plain" | "env";

async function registerWith(source: Source): Promise<Registered[]> {
  const pulumi = require("@pulumi/pulumi");
  const { AppCredentialToken, PasswordToken } = loadDist<Dist>();
  const wrap = (v: string) => (source === "secret" ? pulumi.secret(v) : v);
  const env = {
    OS_APPLICATION_CREDENTIAL_SECRET: scan.get("appCredSecret"),
    OS_PASSWORD: scan.get("password"),
  };
  if (source === "env") Object.assign(process.env, env);
  try {
    return await register(() => {
      new AppCredentialToken(`ci-${source}`, {
        authUrl: emu.identityUrl,
        applicationCredentialId: credId,
        ...(source === "env" ? {} : { applicationCredentialSecret: wrap(scan.get("appCredSecret")) }),
      });
      new PasswordToken(`ops-${source}`, {
        authUrl: emu.identityUrl,
        username: userName,
        userDomainName: "Default",
        ...(source === "env" ? {} : { password: wrap(scan.get("password")) }),
        projectId: emu.seed.projects.demo.id,
      });
    }, 2);
  } finally {
    for (const k of Object.keys(env)) delete process.env[k];
  }
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  credId = emu.addApplicationCredential({ secret: scan.add("appCredSecret", canary("appcred")) }).id;
  userName = emu.addUser({ password: scan.add("password", canary("pässwörd")) }).name;
  scan.add("rotated", canary("rotated"));
  host = await startProviderHost();
  await host.configure({});
}, 60_000);
afterAll(async () => {
  await host?.close();
  await emu?.close();
  printTally("test/secrets/state.test.ts", scan);
});

describe.each<Source>(["secret", "plain", "env"])("state, the credential given as %s", (source) => {
  it("registers token, applicationCredentialSecret and password as additionalSecretOutputs, the credential as a secret input", async () => {
    const regs = await registerWith(source);
    expect(regs.map((r) => r.type)).toEqual([
      "pulumi-nodejs:dynamic/costgate:AppCredentialToken",
      "pulumi-nodejs:dynamic/costgate:PasswordToken",
    ]);
    for (const r of regs) {
      expect(r.additionalSecretOutputs).toEqual(
        expect.arrayContaining(["token", "applicationCredentialSecret", "password"]),
      );
    }
    expect(regs[0]?.secretInputs).toEqual(["applicationCredentialSecret"]);
    expect(regs[1]?.secretInputs).toEqual(["password"]);
  });

  it("stores no canary in plaintext over Create, Update and Read; the token and credential are in the secret part", async () => {
    const regs = await registerWith(source);
    for (const [r, key] of [
      [regs[0]!, "applicationCredentialSecret"],
      [regs[1]!, "password"],
    ] as const) {
      const life = await lifeOverHost(host, r, { key, value: scan.get("rotated") });
      scan.add(`token:${r.name}`, life.token);
      const inputs = engineStore(life.inputs, { secretInputs: r.secretInputs, additionalSecretOutputs: [] });
      scan.expectClean("state: plaintext inputs", JSON.stringify(inputs.plain));
      for (const outputs of life.outputs) {
        const stored = engineStore(outputs, r);
        scan.expectClean("state: plaintext outputs", JSON.stringify(stored.plain));
        expect(stored.secret.token).toBe(life.token);
        expect(stored.secret[key]).toBe(scan.get(key === "password" ? "password" : "appCredSecret"));
        expect(stored.plain).toHaveProperty("expiresAt");
      }
    }
  });
});

describe("getTokenOutput", () => {
  it("is a secret as a whole: exported, it is stored encrypted", async () => {
    const { getTokenOutput } = loadDist<Dist>();
    await register(() => undefined, 0);
    const out = getTokenOutput({
      authUrl: emu.identityUrl,
      applicationCredentialId: credId,
      applicationCredentialSecret: scan.get("appCredSecret"),
    }) as unknown as { isSecret: Promise<boolean>; promise(): Promise<{ id: string }> };
    expect(await out.isSecret).toBe(true);
    expect((await out.promise()).id).toMatch(/^gAAAAAB/);
  });
});
