/**
 * The identity field list is the one source: every OS_* name resolves, every clouds.yaml key is read,
 * and the CLI's flags are the python-openstackclient spellings users know.
 */
import { describe, expect, it } from "vitest";
import { authMethodFields, IDENTITY_FIELDS } from "../../provider/identity/fields";
import { CREDENTIAL_KEYS } from "../../provider/resources/token-impl";

describe("the identity field list", () => {
  it("names each field once, with OS_* variables, and a secret flag on exactly the two secrets", () => {
    const names = IDENTITY_FIELDS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of IDENTITY_FIELDS) expect(f.env[0]).toMatch(/^OS_[A-Z_]+$/);
    expect(IDENTITY_FIELDS.filter((f) => f.secret).map((f) => f.name)).toEqual([
      "applicationCredentialSecret",
      "password",
    ]);
  });
  it("maps fields to each auth method's body once", () => {
    expect(authMethodFields("password", { username: "ci", password: "p", projectName: "app" })).toMatchObject(
      {
        type: "password",
        userName: "ci",
        password: "p",
        projectName: "app",
      },
    );
    const ac = authMethodFields("application_credential", {
      applicationCredentialId: "x",
      projectName: "app",
    });
    expect(ac).toMatchObject({ type: "application_credential", applicationCredentialId: "x" });
    expect(ac).not.toHaveProperty("projectName");
  });
  it("gives the token resource its credential inputs", () => {
    expect([...CREDENTIAL_KEYS].sort()).toEqual(
      [
        "authType",
        "authUrl",
        "applicationCredentialId",
        "applicationCredentialName",
        "applicationCredentialSecret",
        "userId",
        "username",
        "userDomainName",
        "userDomainId",
        "password",
        "projectId",
        "projectName",
        "projectDomainId",
        "projectDomainName",
      ].sort(),
    );
  });
});
