import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveIdentitySettings } from "../../provider/settings";

const appEnv = {
  OS_AUTH_URL: "https://env.example:5000",
  OS_APPLICATION_CREDENTIAL_ID: "env-id",
  OS_APPLICATION_CREDENTIAL_SECRET: "env-secret",
};

function cloudsDir(clouds: string, secure?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "costgate-clouds-"));
  writeFileSync(join(dir, "clouds.yaml"), clouds);
  if (secure) writeFileSync(join(dir, "secure.yaml"), secure);
  return dir;
}

describe("resolveIdentitySettings", () => {
  it("takes OS_* env and adds /v3", () => {
    const s = resolveIdentitySettings({}, appEnv);
    expect(s.authUrl).toBe("https://env.example:5000/v3");
    expect(s.auth).toMatchObject({ type: "application_credential", applicationCredentialId: "env-id" });
  });

  it("lets explicit args win over env", () => {
    const s = resolveIdentitySettings({ applicationCredentialId: "arg-id" }, appEnv);
    expect(s.auth).toMatchObject({
      applicationCredentialId: "arg-id",
      applicationCredentialSecret: "env-secret",
    });
  });

  it("builds a password method from env with OS_TENANT_NAME as a fallback", () => {
    const s = resolveIdentitySettings(
      {},
      {
        OS_AUTH_URL: "https://e/v3",
        OS_USERNAME: "bob",
        OS_PASSWORD: "pw",
        OS_USER_DOMAIN_NAME: "Default",
        OS_TENANT_NAME: "web",
        OS_PROJECT_DOMAIN_ID: "default",
      },
    );
    expect(s.auth).toMatchObject({ type: "password", userName: "bob", projectName: "web" });
  });

  it("reads clouds.yaml with secure.yaml merged in, env OS_CLIENT_CONFIG_FILE first", () => {
    const dir = cloudsDir(
      "clouds:\n  prod:\n    auth_type: v3applicationcredential\n    auth:\n      auth_url: https://yaml.example/v3\n      application_credential_id: yaml-id\n    region_name: RegionOne\n    cacert: /etc/ssl/ca.pem\n",
      "clouds:\n  prod:\n    auth:\n      application_credential_secret: yaml-secret\n",
    );
    const s = resolveIdentitySettings(
      {},
      {
        OS_CLOUD: "prod",
        OS_CLIENT_CONFIG_FILE: join(dir, "clouds.yaml"),
        OS_CLIENT_SECURE_FILE: join(dir, "secure.yaml"),
      },
    );
    expect(s.authUrl).toBe("https://yaml.example/v3");
    expect(s.auth).toMatchObject({
      applicationCredentialId: "yaml-id",
      applicationCredentialSecret: "yaml-secret",
    });
    expect(s.regionName).toBe("RegionOne");
    expect(s.transport.caCert).toBe("/etc/ssl/ca.pem");
  });

  it("names a missing cloud and the clouds it has", () => {
    const dir = cloudsDir("clouds:\n  a: {}\n  b: {}\n");
    expect(() =>
      resolveIdentitySettings({ cloud: "zzz" }, { OS_CLIENT_CONFIG_FILE: join(dir, "clouds.yaml") }),
    ).toThrowError(/^cloud: cloud "zzz" is not in .*\(it has: a, b\)/);
    expect(() =>
      resolveIdentitySettings({}, { OS_CLOUD: "zzz", OS_CLIENT_CONFIG_FILE: join(dir, "clouds.yaml") }),
    ).toThrowError(/^OS_CLOUD: cloud "zzz" is not in/);
  });

  it("names a refused setting where it came from: the argument, the variable or clouds.yaml", () => {
    const dir = cloudsDir("clouds:\n  a: { auth: { auth_url: 'ftp://c' } }\n");
    const file = { OS_CLIENT_CONFIG_FILE: join(dir, "clouds.yaml") };
    expect(() => resolveIdentitySettings({ authUrl: "ftp://a" }, { OS_AUTH_URL: "ftp://e" })).toThrowError(
      /^authUrl: must be an http\(s\) URL/,
    );
    expect(() => resolveIdentitySettings({}, { OS_AUTH_URL: "ftp://e" })).toThrowError(
      /^OS_AUTH_URL: must be/,
    );
    expect(() => resolveIdentitySettings({ cloud: "a" }, file)).toThrowError(
      /^clouds.yaml clouds.a.auth.auth_url: must be an http\(s\) URL/,
    );
  });

  it.each([
    [{}, /^authUrl: missing/],
    [{ OS_AUTH_URL: "https://e/v3" }, /^credentials: none found/],
    [
      { OS_AUTH_URL: "https://e/v3", OS_APPLICATION_CREDENTIAL_ID: "x" },
      /^applicationCredentialSecret: missing/,
    ],
    [{ OS_AUTH_URL: "https://e/v3", OS_USERNAME: "u" }, /^password: missing/],
    [{ OS_AUTH_URL: "https://e/v3", OS_AUTH_TYPE: "token" }, /^OS_AUTH_TYPE: "token" is not supported/],
  ])("refuses %o", (env, message) => {
    expect(() => resolveIdentitySettings({}, env)).toThrowError(message);
  });

  it("takes OS_CACERT and OS_INSECURE", () => {
    const s = resolveIdentitySettings({}, { ...appEnv, OS_CACERT: "/ca.pem", OS_INSECURE: "true" });
    expect(s.transport).toEqual({ caCert: "/ca.pem", insecure: true });
  });
});
