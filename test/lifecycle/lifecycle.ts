/**
 * An AppCredentialToken's life as the engine drives it through the dynamic-provider host, shared by
 * the emulator and real-Keystone suites: issue and validate; an `up` inside the renewBefore window
 * (Diff → replace → Create the new → Delete the old); refresh after an out-of-band revoke; delete.
 */
import { createRequire } from "node:module";
import { expect, it } from "vitest";
import { checkToken, issueToken, revokeToken, validateToken } from "../../provider/identity/tokens";
import { loadDist, type Props, type ProviderHost, useProviderHost } from "../helpers/provider-host";
import { urnOf } from "../secrets/host-flow";
import { register } from "../secrets/register";

const require = createRequire(import.meta.url);
type Dist = typeof import("../../provider");

/** An identity endpoint and an application credential of it. */
export interface LifecycleTarget {
  authUrl: string;
  appCredId: string;
  appCredSecret: string;
}

/** appCredInputs registers an AppCredentialToken and returns its checked inputs. */
export async function appCredInputs(host: ProviderHost, t: LifecycleTarget, extra: Props = {}) {
  const pulumi = require("@pulumi/pulumi");
  const { AppCredentialToken } = loadDist<Dist>();
  const [reg] = await register(() => {
    new AppCredentialToken("ci", {
      authUrl: t.authUrl,
      applicationCredentialId: t.appCredId,
      applicationCredentialSecret: pulumi.secret(t.appCredSecret),
      ...extra,
    });
  });
  const checked = await host.check(URN, {}, reg!.inputs);
  expect(checked.failures).toEqual([]);
  return checked.inputs;
}

export const URN = urnOf("AppCredentialToken", "ci");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

export function tokenLifecycle(target: () => LifecycleTarget): void {
  let host: ProviderHost;
  useProviderHost((h) => {
    host = h;
  });
  const ep = () => ({ authUrl: target().authUrl });

  it("issues a token the identity endpoint validates, with its expiry and audit id", async () => {
    const { id, properties: outs } = await host.create(URN, await appCredInputs(host, target()));
    const info = await validateToken(ep(), String(outs.token));
    expect(info?.auditIds[0]).toBe(id);
    expect(info?.expiresAt).toBe(outs.expiresAt);
    expect(Date.parse(String(outs.expiresAt))).toBeGreaterThan(Date.now());
    await host.delete(id, URN, outs);
  });

  it("re-issues on an `up` inside the renewBefore window and revokes the old token", async () => {
    // The window: the token's lifetime less 3 s, so it is reached by waiting, not by changing inputs.
    const probe = await issueToken(ep(), {
      type: "application_credential",
      applicationCredentialId: target().appCredId,
      applicationCredentialSecret: target().appCredSecret,
    });
    await revokeToken(ep(), probe.id);
    const ttl = Math.floor((Date.parse(probe.expiresAt) - Date.parse(probe.issuedAt ?? "")) / 1000);
    const inputs = await appCredInputs(host, target(), { renewBefore: ttl - 3 });
    const old = await host.create(URN, inputs);
    expect(await host.diff(old.id, URN, old.properties, inputs)).toMatchObject({ replaces: [] });

    await sleep(Date.parse(String(old.properties.expiresAt)) - (ttl - 3) * 1000 - Date.now() + 100);
    // The next `up`, same program: Diff asks for a replacement, created before the old is deleted.
    const diff = await host.diff(old.id, URN, old.properties, inputs);
    expect(diff).toMatchObject({ replaces: ["expiresAt"], deleteBeforeReplace: false });
    const renewed = await host.create(URN, inputs);
    await host.delete(old.id, URN, old.properties);

    expect(renewed.properties.token).not.toBe(old.properties.token);
    expect(await checkToken(ep(), String(old.properties.token))).toBe(false);
    expect(await checkToken(ep(), String(renewed.properties.token))).toBe(true);
    expect((await host.read(renewed.id, URN, renewed.properties)).id).toBe(renewed.id);
    expect((await host.read(old.id, URN, old.properties)).id).toBe("");
    await host.delete(renewed.id, URN, renewed.properties);
  });

  it("reports a token revoked out of band as gone on refresh", async () => {
    const { id, properties } = await host.create(URN, await appCredInputs(host, target()));
    expect((await host.read(id, URN, properties)).id).toBe(id);
    expect(await revokeToken(ep(), String(properties.token))).toBe(true);
    const gone = await host.read(id, URN, properties);
    expect(gone.id).toBe("");
    expect(gone.properties.token).toBeUndefined();
    await host.delete(id, URN, properties);
  });

  it("revokes on delete; deleting again is a no-op", async () => {
    const { id, properties } = await host.create(URN, await appCredInputs(host, target()));
    await host.delete(id, URN, properties);
    expect(await checkToken(ep(), String(properties.token))).toBe(false);
    await host.delete(id, URN, properties);
  });
}
