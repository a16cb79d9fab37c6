/**
 * POST /v3/auth/tokens: both auth methods of spec §4.1/§4.2 in every form Keystone accepts, and
 * Keystone's 400/401/404 answers (shapes from test/keystone/captured).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { appCredAuth, issue, passwordAuth, postJson } from "./helpers";

let emu: Emulator;
let tokensUrl: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: "auth-tests" });
  tokensUrl = `${emu.identityUrl}/auth/tokens`;
});
afterAll(() => emu.close());

const KEYSTONE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

describe("application credential (spec §4.2)", () => {
  it("issues 201 with X-Subject-Token and a token scoped to the credential's project", async () => {
    const r = await issue(emu);
    const { demo: cred } = emu.seed.applicationCredentials;
    expect(r.status).toBe(201);
    expect(r.token).toMatch(/^gAAAAA[A-Za-z0-9_-]{170,250}$/);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.headers.get("x-openstack-request-id")).toMatch(/^req-/);
    const t = r.json.token;
    expect(t.methods).toEqual(["application_credential"]);
    expect(t.user).toEqual({
      domain: emu.seed.domains.default,
      id: emu.seed.users.demo.id,
      name: "demo",
      password_expires_at: null,
    });
    expect(t.project).toEqual({
      domain: emu.seed.domains.customers,
      id: cred.projectId,
      name: "demo-project",
    });
    expect(t.is_domain).toBe(false);
    expect(t.roles.map((x: { name: string }) => x.name).sort()).toEqual(["member", "reader"]);
    expect(t.application_credential).toEqual({ id: cred.id, name: cred.name, restricted: true });
    expect(t.expires_at).toMatch(KEYSTONE_TIME);
    expect(Date.parse(t.expires_at) - Date.parse(t.issued_at)).toBe(3600_000);
    const types = t.catalog.map((s: { type: string }) => s.type);
    expect(types).toEqual(
      expect.arrayContaining(["identity", "compute", "network", "volumev3", "image", "object-store"]),
    );
    const identity = t.catalog.find((s: { type: string }) => s.type === "identity");
    expect(identity.endpoints.map((e: { interface: string }) => e.interface)).toEqual([
      "public",
      "internal",
      "admin",
    ]);
    expect(identity.endpoints[0]).toMatchObject({
      region_id: "RegionOne",
      region: "RegionOne",
      url: emu.identityUrl,
    });
  });

  it("accepts the credential by name with its user by name + domain name, or by user id", async () => {
    const c = emu.seed.applicationCredentials.unicode;
    const u = emu.seed.users.unicode;
    const byName = appCredAuth({
      name: c.name,
      secret: c.secret,
      user: { name: u.name, domain: { name: "customers" } },
    });
    expect((await postJson(tokensUrl, byName)).status).toBe(201);
    const byId = await postJson(
      tokensUrl,
      appCredAuth({ name: c.name, secret: c.secret, user: { id: u.id } }),
    );
    expect(byId.json.token.application_credential.id).toBe(c.id);
  });

  it("omits the catalog with ?nocatalog", async () => {
    const r = await issue(emu, "?nocatalog");
    expect(r.json.token.catalog).toBeUndefined();
    expect(r.json.token.project).toBeDefined();
  });

  it("refuses a wrong secret (401), an unknown id (404) and any scope (401)", async () => {
    const c = emu.seed.applicationCredentials.demo;
    const wrong = await postJson(tokensUrl, appCredAuth({ id: c.id, secret: "nope" }));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe(`Keystone uri="${emu.identityUrl}"`);
    const unknown = await postJson(tokensUrl, appCredAuth({ id: "0".repeat(32), secret: "x" }));
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toBe(`Could not find Application Credential: ${"0".repeat(32)}.`);
    const scoped = await postJson(tokensUrl, {
      auth: { ...appCredAuth({ id: c.id, secret: c.secret }).auth, scope: { project: { id: c.projectId } } },
    });
    expect(scoped.status).toBe(401);
    expect(scoped.json.error.message).toMatch(/Application credentials cannot request a scope/);
  });
});

describe("password (spec §4.1)", () => {
  it("issues a project token: user domain by name, project by name + domain id", async () => {
    const { demo } = emu.seed.users;
    const r = await postJson(
      tokensUrl,
      passwordAuth(
        { name: "demo", domain: { name: "Default" }, password: demo.password },
        { project: { name: "demo-project", domain: { id: emu.seed.domains.customers.id } } },
      ),
    );
    expect(r.status).toBe(201);
    expect(r.json.token.methods).toEqual(["password"]);
    expect(r.json.token.project.id).toBe(emu.seed.projects.demo.id);
    expect(r.json.token.application_credential).toBeUndefined();
  });

  it("takes a non-ASCII password (UTF-8 JSON), user by id, project by id or by name + domain name", async () => {
    const u = emu.seed.users.unicode;
    expect(u.password).toMatch(/[^ -~]/);
    const byId = passwordAuth(
      { id: u.id, password: u.password },
      { project: { id: emu.seed.projects.staging.id } },
    );
    expect((await postJson(tokensUrl, byId)).json.token.project.name).toBe("staging");
    const byName = passwordAuth(
      { name: u.name, domain: { name: "customers" }, password: u.password },
      { project: { name: "demo-project", domain: { name: "customers" } } },
    );
    expect((await postJson(tokensUrl, byName)).status).toBe(201);
  });

  it("issues an unscoped token without project, roles or catalog", async () => {
    const { demo } = emu.seed.users;
    const r = await postJson(tokensUrl, passwordAuth({ id: demo.id, password: demo.password }));
    expect(r.status).toBe(201);
    expect(Object.keys(r.json.token)).toEqual(["methods", "user", "audit_ids", "expires_at", "issued_at"]);
  });

  it("rescopes an unscoped token with the token method", async () => {
    const { demo } = emu.seed.users;
    const unscoped = await postJson(tokensUrl, passwordAuth({ id: demo.id, password: demo.password }));
    const id = unscoped.headers.get("x-subject-token");
    const r = await postJson(tokensUrl, {
      auth: {
        identity: { methods: ["token"], token: { id } },
        scope: { project: { id: emu.seed.projects.demo.id } },
      },
    });
    expect(r.status).toBe(201);
    expect(r.json.token.methods).toEqual(["token"]);
    expect(r.json.token.project.name).toBe("demo-project");
  });

  it("answers 401 for a wrong password, an unknown project and a project without a role", async () => {
    const { demo } = emu.seed.users;
    const user = { id: demo.id, password: demo.password };
    const cases = [
      passwordAuth({ ...user, password: "wrong" }, { project: { id: emu.seed.projects.demo.id } }),
      passwordAuth(user, { project: { id: "nope" } }),
      passwordAuth(user, { project: { id: emu.seed.projects.staging.id } }),
    ];
    for (const body of cases) {
      const r = await postJson(tokensUrl, body);
      expect(r.status).toBe(401);
      expect(r.json).toEqual({
        error: {
          code: 401,
          message: "The request you have made requires authentication.",
          title: "Unauthorized",
        },
      });
    }
  });
});

describe("malformed requests", () => {
  const bad = async (body: unknown) => {
    const r = await postJson(tokensUrl, body);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 400, title: "Bad Request" });
    return r.json.error.message as string;
  };

  it("answers 400 with Keystone's messages", async () => {
    expect(await bad("{not json")).toMatch(/^Expecting to find valid JSON in request body\./);
    expect(await bad({})).toMatch(/^Expecting to find auth in request body\./);
    expect(await bad({ auth: { identity: {} } })).toMatch(
      /^Invalid input for field 'identity': 'methods' is a required property/,
    );
    expect(await bad({ auth: { identity: { methods: "password" } } })).toMatch(
      /^Invalid input for field 'identity\/methods': 'password' is not of type 'array'/,
    );
    expect(await bad(passwordAuth({ name: "demo", password: "x" }))).toMatch(
      /^Expecting to find domain in user\./,
    );
  });

  it("answers an unknown method with 401 listing the methods", async () => {
    const r = await postJson(tokensUrl, { auth: { identity: { methods: ["magic"], magic: {} } } });
    expect(r.status).toBe(401);
    expect(r.json.error.message).toBe("Attempted to authenticate with an unsupported method.");
    expect(r.json.error.identity.methods).toContain("application_credential");
  });
});

describe("seed", () => {
  it("gives the same ids and secrets for the same seed, others for another seed", async () => {
    const again = await startEmulator({ seed: "auth-tests" });
    const other = await startEmulator({ seed: "other" });
    try {
      expect(again.seed).toEqual(emu.seed);
      expect(other.seed.applicationCredentials.demo.id).not.toBe(emu.seed.applicationCredentials.demo.id);
      expect(other.seed.billing.token).not.toBe(emu.seed.billing.token);
      expect(other.seed.domains.default.id).toBe("default");
    } finally {
      await Promise.all([again.close(), other.close()]);
    }
  });
});
