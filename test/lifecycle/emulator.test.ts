/**
 * The token lifecycle against the emulator.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { tokenLifecycle } from "./lifecycle";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu?.close();
});

describe("token lifecycle through the dynamic-provider host against the emulator", () => {
  tokenLifecycle(() => {
    const cred = emu.seed.applicationCredentials.demo;
    return { authUrl: emu.identityUrl, appCredId: cred.id, appCredSecret: cred.secret };
  });
});
