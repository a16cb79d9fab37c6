/**
 * Canaries against a real Keystone: the application credential secret Keystone generated, the
 * user's (non-ASCII) password, a wrong-secret canary and the Fernet tokens it issues, through the
 * library's errors, the CLI (COSTGATE_DEBUG=1) and the dynamic-provider host.
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import "../keystone/env";
import { issueToken } from "../../provider/identity/tokens";
import { runCli } from "../helpers/cli";
import { loadDist, type ProviderHost, startProviderHost } from "../helpers/provider-host";
import { CanaryScan, canary, errorTexts, printTally } from "./canary";
import { lifeOverHost } from "./host-flow";
import { engineStore, register } from "./register";

const require = createRequire(import.meta.url);
type Dist = typeof import("../../provider");
const ks = inject("keystone");
const scan = new CanaryScan();

describe.skipIf(!ks)("canaries against a real Keystone", () => {
  let host: ProviderHost;
  const k = () => ks!;
  const appCredEnv = () => ({
    OS_AUTH_URL: k().authUrl,
    OS_APPLICATION_CREDENTIAL_ID: k().appCredId,
    OS_APPLICATION_CREDENTIAL_SECRET: k().appCredSecret,
  });

  beforeAll(async () => {
    scan.add("appCredSecret", k().appCredSecret);
    scan.add("password", k().password);
    scan.add("adminPassword", k().adminPassword);
    scan.add("wrong", canary("wrong"));
    host = await startProviderHost({ COSTGATE_DEBUG: "1" });
    await host.configure({});
  }, 60_000);
  afterAll(async () => {
    const out = host?.output() ?? "";
    await host?.close();
    scan.expectClean("host process stdout/stderr (COSTGATE_DEBUG=1)", out);
    printTally("test/secrets/keystone.test.ts", scan);
  });

  it("library errors for a wrong secret and a wrong password carry neither", async () => {
    const ep = { authUrl: k().authUrl };
    for (const m of [
      {
        type: "application_credential" as const,
        applicationCredentialId: k().appCredId,
        applicationCredentialSecret: scan.get("wrong"),
      },
      {
        type: "password" as const,
        userName: k().userName,
        userDomainName: k().domainName,
        password: scan.get("wrong"),
        projectId: k().projectId,
      },
    ]) {
      const e = await issueToken(ep, m).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(Error);
      scan.expectClean("library errors", errorTexts(e));
    }
  });

  it("the CLI prints the token only on stdout of `costgate token`, and no secret on a refusal", async () => {
    const ok = await runCli(["token"], { ...appCredEnv(), COSTGATE_DEBUG: "1" });
    expect(ok.code).toBe(0);
    scan.add("token:cli", ok.stdout.trim());
    expect(ok.stderr).toMatch(/costgate: -> POST/);
    scan.expectClean("CLI stderr", ok.stderr);
    const refused = await runCli(["token"], {
      ...appCredEnv(),
      OS_APPLICATION_CREDENTIAL_SECRET: scan.get("wrong"),
      COSTGATE_DEBUG: "1",
    });
    expect(refused.code).toBe(3);
    scan.expectClean("CLI stdout and stderr", [refused.stdout, refused.stderr]);
  });

  it("the host stores no secret or token in plaintext and prints none", async () => {
    const pulumi = require("@pulumi/pulumi");
    const { AppCredentialToken, PasswordToken } = loadDist<Dist>();
    const regs = await register(() => {
      new AppCredentialToken("ci", {
        authUrl: k().authUrl,
        applicationCredentialId: k().appCredId,
        applicationCredentialSecret: pulumi.secret(k().appCredSecret),
      });
      new PasswordToken("ops", {
        authUrl: k().authUrl,
        username: k().userName,
        userDomainName: k().domainName,
        password: pulumi.secret(k().password),
        projectName: k().projectName,
        projectDomainId: k().domainId,
      });
    }, 2);
    for (const [r, key] of [
      [regs[0]!, "applicationCredentialSecret"],
      [regs[1]!, "password"],
    ] as const) {
      scan.expectClean("serialized __provider", String(r.inputs.__provider));
      const life = await lifeOverHost(host, r, { key, value: scan.get("wrong") });
      scan.add(`token:${r.name}`, life.token);
      const plain = [life.inputs, ...life.outputs].map((o) => JSON.stringify(engineStore(o, r).plain));
      scan.expectClean("state: plaintext inputs and outputs", plain);
    }
  });
});
