/**
 * AppCredentialToken and PasswordToken driven through Pulumi's own dynamic-provider host over
 * gRPC (Configure, Check, Diff, Create, Read, Update, Delete), from the compiled build, as
 * `pulumi up` runs them. Shared by the emulator and real-Keystone suites.
 */
import { createRequire } from "node:module";
import { expect, it } from "vitest";
import { checkToken, revokeToken } from "../../provider/identity/tokens";
import {
  loadDist,
  type Props,
  type ProviderHost,
  registrations,
  useProviderHost,
} from "../helpers/provider-host";
import type { IdentityTarget } from "../identity/conformance";

const require = createRequire(import.meta.url);
const DIFF_NONE = 1;
const DIFF_SOME = 2;

type Dist = typeof import("../../provider");

export function tokenResourceConformance(target: () => IdentityTarget): void {
  let host: ProviderHost;
  useProviderHost((h) => {
    host = h;
  });
  const urn = (type: string, name: string) =>
    `urn:pulumi:test::costgate-test::pulumi-nodejs:dynamic/costgate:${type}::${name}`;

  async function appCredInputs(extra: Props = {}): Promise<Props> {
    const pulumi = require("@pulumi/pulumi");
    const { AppCredentialToken } = loadDist<Dist>();
    const regs = await registrations(() => {
      new AppCredentialToken("ci", {
        authUrl: target().authUrl,
        applicationCredentialId: target().appCredId,
        applicationCredentialSecret: pulumi.secret(target().appCredSecret),
        ...extra,
      });
    });
    expect(regs).toHaveLength(1);
    expect(regs[0]?.type).toBe("pulumi-nodejs:dynamic/costgate:AppCredentialToken");
    return regs[0]!.inputs;
  }

  it("serializes a provider that captures no credential", async () => {
    const inputs = await appCredInputs();
    const text = String(inputs.__provider);
    expect(text).not.toContain(target().appCredSecret);
    expect(text).not.toContain(target().appCredId);
    expect(text).not.toContain(target().authUrl);
    expect(text.length).toBeLessThan(16_384);
  });

  it("creates, diffs, reads, updates and deletes an AppCredentialToken", async () => {
    const u = urn("AppCredentialToken", "ci");
    const checked = await host.check(u, {}, await appCredInputs());
    expect(checked.failures).toEqual([]);
    const { id, properties: outs } = await host.create(u, checked.inputs);
    expect(id).toBe(outs.auditId);
    expect(outs.projectId).toBe(target().projectId);
    expect(outs.methods).toEqual(["application_credential"]);
    expect(Date.parse(String(outs.expiresAt))).toBeGreaterThan(Date.now());
    expect(Array.isArray(outs.catalog)).toBe(true);
    expect(await checkToken({ authUrl: target().authUrl }, String(outs.token))).toBe(true);

    // Nothing changed: no diff.
    expect(await host.diff(id, u, outs, checked.inputs)).toMatchObject({ changes: DIFF_NONE, replaces: [] });
    // A window larger than the token's life: replace, naming expiresAt.
    const renew = { ...checked.inputs, renewBeforeSeconds: 10 * 24 * 3600 };
    expect(await host.diff(id, u, outs, renew)).toMatchObject({
      changes: DIFF_SOME,
      replaces: ["expiresAt"],
    });
    // A credential change: replace, naming the credential.
    const rotated = { ...checked.inputs, applicationCredentialSecret: "rotated" };
    expect((await host.diff(id, u, outs, rotated)).replaces).toContain("applicationCredentialSecret");
    // A setting change: update in place, same token.
    const tweaked = { ...checked.inputs, renewBeforeSeconds: 60 };
    expect(await host.diff(id, u, outs, tweaked)).toMatchObject({ changes: DIFF_SOME, replaces: [] });
    const updated = await host.update(id, u, outs, tweaked);
    expect(updated.properties.token).toBe(outs.token);
    expect(updated.properties.renewBeforeSeconds).toBe(60);

    // Refresh validates.
    const read = await host.read(id, u, outs);
    expect(read.id).toBe(id);
    expect(read.properties.token).toBe(outs.token);

    // Delete revokes.
    await host.delete(id, u, outs);
    expect(await checkToken({ authUrl: target().authUrl }, String(outs.token))).toBe(false);
    // Deleting again (already revoked) is fine.
    await host.delete(id, u, outs);
  });

  it("reports a token revoked out of band as gone on refresh", async () => {
    const u = urn("AppCredentialToken", "gone");
    const checked = await host.check(u, {}, await appCredInputs());
    const { id, properties } = await host.create(u, checked.inputs);
    await revokeToken({ authUrl: target().authUrl }, String(properties.token));
    const read = await host.read(id, u, properties);
    expect(read.id).toBe("");
  });

  it("creates a PasswordToken scoped to the project", async () => {
    const pulumi = require("@pulumi/pulumi");
    const { PasswordToken } = loadDist<Dist>();
    const regs = await registrations(() => {
      new PasswordToken("ops", {
        authUrl: target().authUrl,
        username: target().userName,
        userDomainName: target().userDomainName,
        password: pulumi.secret(target().password),
        projectName: target().projectName,
        projectDomainId: target().projectDomainId,
      });
    });
    const u = urn("PasswordToken", "ops");
    const inputs = regs[0]!.inputs;
    expect(String(inputs.__provider)).not.toContain(target().password);
    const checked = await host.check(u, {}, inputs);
    expect(checked.failures).toEqual([]);
    const { id, properties } = await host.create(u, checked.inputs);
    expect(properties.methods).toEqual(["password"]);
    expect(properties.projectId).toBe(target().projectId);
    await host.delete(id, u, properties);
  });

  it("refuses bad inputs in Check, naming the property, before any request", async () => {
    const inputs = await appCredInputs();
    const bad = await host.check(
      urn("AppCredentialToken", "bad"),
      {},
      { ...inputs, authUrl: "https://x.example/v2.0" },
    );
    expect(bad.failures[0]?.property).toBe("authUrl");
    const noSecret = { ...inputs };
    delete noSecret.applicationCredentialSecret;
    const missing = await host.check(urn("AppCredentialToken", "bad"), {}, noSecret);
    expect(missing.failures[0]?.property).toBe("applicationCredentialSecret");
  });

  it("never lets the host print a credential or token", () => {
    const out = host.output();
    expect(out).not.toContain(target().appCredSecret);
    expect(out).not.toContain(target().password);
  });
}
