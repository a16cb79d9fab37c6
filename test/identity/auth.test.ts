import { describe, expect, it } from "vitest";
import { authBody, validateAuth } from "../../provider/identity/auth";

const appCred = {
  type: "application_credential",
  applicationCredentialId: "ac1",
  applicationCredentialSecret: "s3cr3t",
};
const password = {
  type: "password",
  userName: "alice",
  userDomainName: "Default",
  password: "pässwörd",
  projectName: "web",
  projectDomainId: "default",
};

describe("authBody", () => {
  it("sends an application credential by id and secret, without scope (spec §4.2)", () => {
    expect(authBody(validateAuth(appCred))).toEqual({
      auth: {
        identity: {
          methods: ["application_credential"],
          application_credential: { id: "ac1", secret: "s3cr3t" },
        },
      },
    });
  });

  it("sends a credential by name with its user", () => {
    const m = validateAuth({
      ...appCred,
      applicationCredentialId: undefined,
      applicationCredentialName: "ci",
      userId: "u1",
    });
    expect(authBody(m)).toEqual({
      auth: {
        identity: {
          methods: ["application_credential"],
          application_credential: { name: "ci", secret: "s3cr3t", user: { id: "u1" } },
        },
      },
    });
  });

  it("sends a password with user domain by name and project by name + domain id (spec §4.1)", () => {
    expect(authBody(validateAuth(password))).toEqual({
      auth: {
        identity: {
          methods: ["password"],
          password: { user: { name: "alice", domain: { name: "Default" }, password: "pässwörd" } },
        },
        scope: { project: { name: "web", domain: { id: "default" } } },
      },
    });
  });

  it("scopes by project id and user id when given", () => {
    const m = validateAuth({ type: "password", userId: "u1", password: "p", projectId: "p1" });
    expect(authBody(m)).toEqual({
      auth: {
        identity: { methods: ["password"], password: { user: { id: "u1", password: "p" } } },
        scope: { project: { id: "p1" } },
      },
    });
  });

  it("takes domains by id or name on both sides", () => {
    const m = validateAuth({
      ...password,
      userDomainName: undefined,
      userDomainId: "d1",
      projectDomainId: undefined,
      projectDomainName: "Cust",
    });
    const body = authBody(m) as { auth: { identity: { password: { user: unknown } }; scope: unknown } };
    expect(body.auth.identity.password.user).toEqual({
      name: "alice",
      domain: { id: "d1" },
      password: "pässwörd",
    });
    expect(body.auth.scope).toEqual({ project: { name: "web", domain: { name: "Cust" } } });
  });
});

describe("validateAuth refuses, naming the field", () => {
  it.each([
    [{ ...appCred, applicationCredentialId: undefined }, "applicationCredentialId"],
    [{ ...appCred, applicationCredentialSecret: "" }, "applicationCredentialSecret"],
    [{ ...appCred, applicationCredentialId: undefined, applicationCredentialName: "ci" }, "userId"],
    [{ ...password, userName: undefined }, "userName"],
    [{ ...password, userDomainName: undefined }, "userDomainName"],
    [{ ...password, password: "" }, "password"],
    [{ ...password, projectName: undefined }, "projectName"],
    [{ ...password, projectDomainId: undefined }, "projectDomainId"],
    [{ ...password, surprise: 1 }, ""],
  ])("%o -> %s", (input, field) => {
    expect(() => validateAuth(input)).toThrowError(new RegExp(`^${field}`));
  });

  it("never puts the secret in the message", () => {
    try {
      validateAuth({ ...appCred, applicationCredentialId: undefined });
    } catch (e) {
      expect((e as Error).message).not.toContain("s3cr3t");
    }
  });
});
