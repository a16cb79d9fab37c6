/**
 * Expiry for real: the emulator issues 2-second tokens and the test waits them out (no mocked
 * clock). Before: no diff, Read finds it. After: Diff asks for a replacement (`expiresAt`), Read
 * reports it gone, and Delete succeeds without a request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { type ProviderHost, startProviderHost } from "../helpers/provider-host";
import { appCredInputs, URN } from "./lifecycle";

let emu: Emulator;
let host: ProviderHost;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, tokenTtlSeconds: 2 });
  host = await startProviderHost();
  await host.configure({});
}, 30_000);
afterAll(async () => {
  await host?.close();
  await emu?.close();
});

describe("a token that expires (tokenTtlSeconds: 2)", () => {
  it("is replaced by Diff, gone on Read, and deleted without a request once expired", async () => {
    const cred = emu.seed.applicationCredentials.demo;
    const target = { authUrl: emu.identityUrl, appCredId: cred.id, appCredSecret: cred.secret };
    // renewBefore 0: only expiry itself asks for a new token.
    const inputs = await appCredInputs(host, target, { renewBefore: 0 });
    const { id, properties } = await host.create(URN, inputs);
    const expiresAt = Date.parse(String(properties.expiresAt));
    expect(expiresAt - Date.parse(String(properties.issuedAt))).toBe(2_000);

    expect(await host.diff(id, URN, properties, inputs)).toMatchObject({ replaces: [] });
    expect((await host.read(id, URN, properties)).id).toBe(id);

    await new Promise((r) => setTimeout(r, expiresAt - Date.now() + 100));
    expect(await host.diff(id, URN, properties, inputs)).toMatchObject({ replaces: ["expiresAt"] });
    expect((await host.read(id, URN, properties)).id).toBe("");
    emu.requests.length = 0;
    await host.delete(id, URN, properties);
    expect(emu.requests).toEqual([]);
  });
});
