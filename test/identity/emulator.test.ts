/**
 * The identity conformance suite against the project's own emulator.
 */
import { afterAll, beforeAll, describe } from "vitest";
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
