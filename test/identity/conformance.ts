/**
 * One conformance suite for the identity client and the `costgate token` command, run against the
 * emulator and against a real Keystone (test/keystone).
 */
import { expect, it } from "vitest";
import { isAuthError } from "../../provider/errors";
import { findEndpoint } from "../../provider/identity/catalog";
import { checkToken, issueToken, revokeToken, validateToken } from "../../provider/identity/tokens";
import { runCli } from "../helpers/cli";

/** emulatorNotice is the line `costgate` writes on stderr when it talks to the emulator at `origin`. */
export function emulatorNotice(origin: string): string {
  return `costgate: talking to the costgate emulator at ${origin} (not a real cloud)\n`;
}

/** What a suite needs to know about the endpoint under test. */
export interface IdentityTarget {
  /** True for costgate's emulator: the command line says so once on stderr (a real Keystone: nothing). */
  emulator?: boolean;
  authUrl: string;
  appCredId: string;
  appCredSecret: string;
  userName: string;
  userDomainName: string;
  password: string;
  projectName: string;
  projectDomainId: string;
  projectId: string;
}

export { runCli };

export function identityConformance(target: () => IdentityTarget): void {
  const ep = () => ({ authUrl: target().authUrl });
  const appCred = () => ({
    type: "application_credential" as const,
    applicationCredentialId: target().appCredId,
    applicationCredentialSecret: target().appCredSecret,
  });
  const password = () => ({
    type: "password" as const,
    userName: target().userName,
    userDomainName: target().userDomainName,
    password: target().password,
    projectName: target().projectName,
    projectDomainId: target().projectDomainId,
  });

  it("issues a token by application credential, scoped to the credential's project", async () => {
    const t = await issueToken(ep(), appCred());
    expect(t.id.length).toBeGreaterThan(20);
    expect(t.methods).toContain("application_credential");
    expect(t.project?.id).toBe(target().projectId);
    expect(t.applicationCredential?.id).toBe(target().appCredId);
    expect(Date.parse(t.expiresAt)).toBeGreaterThan(Date.now());
    expect(t.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(t.issuedAt).toMatch(/Z$/);
    expect(t.roles.length).toBeGreaterThan(0);
    expect(t.auditIds.length).toBeGreaterThan(0);
    expect(findEndpoint(t.catalog, "identity", "public")).toMatch(/^http/);
  });

  it("issues a token by password with a non-ASCII password, user domain by name, project by name + domain id", async () => {
    const t = await issueToken(ep(), password());
    expect(t.methods).toEqual(["password"]);
    expect(t.user.name).toBe(target().userName);
    expect(t.project).toMatchObject({ id: target().projectId, name: target().projectName });
  });

  it("issues a token by password scoped by project id, with an auth URL lacking /v3", async () => {
    const base = target().authUrl.replace(/\/v3$/, "");
    const t = await issueToken(
      { authUrl: base },
      { ...password(), projectName: undefined, projectDomainId: undefined, projectId: target().projectId },
    );
    expect(t.project?.id).toBe(target().projectId);
  });

  it("validates, checks and revokes; a revoked token is reported gone", async () => {
    const t = await issueToken(ep(), appCred());
    const info = await validateToken(ep(), t.id);
    expect(info?.auditIds).toEqual(t.auditIds);
    expect(info?.project?.id).toBe(target().projectId);
    expect(await checkToken(ep(), t.id)).toBe(true);
    expect(await revokeToken(ep(), t.id)).toBe(true);
    expect(await validateToken(ep(), t.id)).toBeNull();
    expect(await checkToken(ep(), t.id)).toBe(false);
    expect(await revokeToken(ep(), t.id)).toBe(false);
  });

  it("validates one token with another; a garbage subject is null", async () => {
    const a = await issueToken(ep(), appCred());
    const b = await issueToken(ep(), appCred());
    expect((await validateToken(ep(), b.id, a.id))?.auditIds).toEqual(b.auditIds);
    expect(await validateToken(ep(), `gAAAAAB${"x".repeat(170)}`, a.id)).toBeNull();
  });

  it("refuses a wrong secret with a typed 401 that names the fix and hides the secret", async () => {
    const wrong = `wrong-${Math.random().toString(36).slice(2)}`;
    const e = await issueToken(ep(), { ...appCred(), applicationCredentialSecret: wrong }).catch((x) => x);
    expect(isAuthError(e)).toBe(true);
    expect(e.status).toBe(401);
    expect(e.message).toMatch(/authentication failed/);
    expect(e.message).toMatch(/OS_APPLICATION_CREDENTIAL_SECRET/);
    expect(e.requestId).toMatch(/^req-/);
    expect(e.message).not.toContain(wrong);
  });

  it("refuses an unknown credential id and a wrong password as failed authentication", async () => {
    const e1 = await issueToken(ep(), { ...appCred(), applicationCredentialId: "0".repeat(32) }).catch(
      (x) => x,
    );
    expect(isAuthError(e1)).toBe(true);
    expect(e1.message).toMatch(/authentication failed/);
    const e2 = await issueToken(ep(), { ...password(), password: "not-the-password" }).catch((x) => x);
    expect(isAuthError(e2)).toBe(true);
    expect(e2.message).not.toContain("not-the-password");
  });

  it("`costgate token` prints a token Keystone validates; --json carries the fields", async () => {
    const env = {
      OS_AUTH_URL: target().authUrl,
      OS_APPLICATION_CREDENTIAL_ID: target().appCredId,
      OS_APPLICATION_CREDENTIAL_SECRET: target().appCredSecret,
    };
    const plain = await runCli(["token"], env);
    const notice = target().emulator ? emulatorNotice(new URL(target().authUrl).origin) : "";
    expect(plain.stderr).toBe(notice);
    expect(plain.code).toBe(0);
    const id = plain.stdout.trim();
    expect(await checkToken(ep(), id)).toBe(true);
    const json = await runCli(["token", "--json"], env);
    const body = JSON.parse(json.stdout);
    for (const k of ["token", "expiresAt", "issuedAt", "methods", "user", "project", "roles", "catalog"]) {
      expect(body).toHaveProperty(k);
    }
    expect(body.project.id).toBe(target().projectId);
  });

  it("`costgate token` with the password form, domain by name and a non-ASCII password", async () => {
    const r = await runCli(["token"], {
      OS_AUTH_URL: target().authUrl,
      OS_USERNAME: target().userName,
      OS_PASSWORD: target().password,
      OS_USER_DOMAIN_NAME: target().userDomainName,
      OS_PROJECT_NAME: target().projectName,
      OS_PROJECT_DOMAIN_ID: target().projectDomainId,
    });
    expect(r.code).toBe(0);
    expect(await checkToken(ep(), r.stdout.trim())).toBe(true);
  });

  it("`costgate token` exits 3 on a wrong secret, with one line and no secret", async () => {
    const wrong = `canary-${Math.random().toString(36).slice(2)}`;
    const r = await runCli(["token"], {
      OS_AUTH_URL: target().authUrl,
      OS_APPLICATION_CREDENTIAL_ID: target().appCredId,
      OS_APPLICATION_CREDENTIAL_SECRET: wrong,
    });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/authentication failed/i);
    const notice = target().emulator ? emulatorNotice(new URL(target().authUrl).origin) : "";
    expect(r.stderr.startsWith(notice)).toBe(true);
    expect(r.stderr.slice(notice.length).trim().split("\n")).toHaveLength(1);
    expect(r.stderr).not.toContain(wrong);
  });
}
