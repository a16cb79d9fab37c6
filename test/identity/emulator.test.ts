/**
 * The identity conformance suite against the project's own emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { tokenResourceConformance } from "../resources/token.conformance";
import { type IdentityTarget, identityConformance } from "./conformance";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu?.close();
});

// The user with the non-ASCII password, in a domain referenced by name.
const target = (): IdentityTarget => {
  const user = emu.seed.users.unicode;
  const cred = emu.seed.applicationCredentials.demo;
  const project = emu.seed.projects.demo;
  return {
    emulator: true,
    authUrl: emu.identityUrl,
    appCredId: cred.id,
    appCredSecret: cred.secret,
    userName: user.name,
    userDomainName: user.domain.name,
    password: user.password,
    projectName: project.name,
    projectDomainId: project.domain.id,
    projectId: project.id,
  };
};

describe("identity client against the emulator", () => {
  identityConformance(target);
});

describe("token resources through the dynamic-provider host against the emulator", () => {
  tokenResourceConformance(target);
});

describe("getToken and getTokenOutput (no state)", () => {
  it("issues a fresh token from arguments, and as a secret Output", async () => {
    const { createRequire } = await import("node:module");
    const req = createRequire(import.meta.url);
    const pulumi = req("@pulumi/pulumi");
    pulumi.runtime.setMocks(
      { newResource: () => ({ id: "x", state: {} }), call: () => ({}) },
      "p",
      "s",
      true,
    );
    const dist = req("../../dist/provider/index.js") as typeof import("../../provider");
    const t = target();
    const args = {
      authUrl: t.authUrl,
      applicationCredentialId: t.appCredId,
      applicationCredentialSecret: t.appCredSecret,
    };
    const token = await dist.getToken(args);
    expect(token.project?.id).toBe(t.projectId);
    const out = dist.getTokenOutput(args);
    expect(await out.isSecret).toBe(true);
    const value = await new Promise<import("../../provider").Token>((ok) => out.apply(ok));
    expect(value.id).not.toBe(token.id);
    expect(value.expiresAt).toMatch(/Z$/);
  });
});
