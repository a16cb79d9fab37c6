/**
 * Smoke test of the real Keystone started by test/keystone/global-setup.ts: the version document, and
 * tokens by application credential and by a non-ASCII password. Skips when no Keystone was provided.
 */
import { describe, expect, inject, it } from "vitest";
import "./env";

const ks = inject("keystone");
const title = ks ? "real Keystone" : `real Keystone (skipped: ${inject("keystoneSkipReason")})`;

interface TokenBody {
  token: {
    methods: string[];
    user: { id: string; name: string; domain: { id: string; name: string } };
    project?: { id: string; name: string; domain: { id: string; name: string } };
    roles?: { id: string; name: string }[];
    expires_at: string;
    issued_at: string;
    catalog?: { type: string; endpoints: { interface: string; url: string; region_id: string }[] }[];
    application_credential?: { id: string; name: string; restricted: boolean };
  };
}

async function postTokens(authUrl: string, body: unknown): Promise<Response> {
  return fetch(`${authUrl}/auth/tokens`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
}

describe.skipIf(!ks)(title, () => {
  const env = ks!;

  it("answers GET /v3 with the v3 version document", async () => {
    const res = await fetch(env.authUrl, { headers: { Accept: "application/json" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { version: { id: string; status: string } };
    expect(body.version.id).toMatch(/^v3\.\d+$/);
    expect(body.version.status).toBe("stable");
  });

  it("issues a project-scoped token for the application credential (no scope in the request)", async () => {
    const res = await postTokens(env.authUrl, {
      auth: {
        identity: {
          methods: ["application_credential"],
          application_credential: { id: env.appCredId, secret: env.appCredSecret },
        },
      },
    });
    expect(res.status).toBe(201);
    const token = res.headers.get("x-subject-token");
    expect(token).toMatch(/^gAAAAA[\w-]+$/);
    expect(res.headers.get("x-openstack-request-id")).toMatch(/^req-[0-9a-f-]{36}$/);
    const { token: t } = (await res.json()) as TokenBody;
    expect(t.methods).toEqual(["application_credential"]);
    expect(t.user.id).toBe(env.userId);
    expect(t.project?.id).toBe(env.projectId);
    expect(t.roles?.map((r) => r.name)).toContain(env.roleName);
    expect(t.application_credential).toMatchObject({ id: env.appCredId, name: env.appCredName });
    expect(t.catalog?.find((s) => s.type === "identity")?.endpoints.map((e) => e.url)).toContain(env.authUrl);

    // The token validates (the subject may validate its own token).
    const check = await fetch(`${env.authUrl}/auth/tokens`, {
      headers: { Accept: "application/json", "X-Auth-Token": token!, "X-Subject-Token": token! },
    });
    expect(check.status).toBe(200);
    expect(((await check.json()) as TokenBody).token.project?.id).toBe(env.projectId);
  });

  it("rejects a wrong application-credential secret with 401", async () => {
    const res = await postTokens(env.authUrl, {
      auth: {
        identity: {
          methods: ["application_credential"],
          // Changed at the start: bcrypt (Keystone's default hash) only compares the first 72 bytes, so a
          // secret that differs only after byte 72 is accepted.
          application_credential: { id: env.appCredId, secret: `x${env.appCredSecret.slice(1)}` },
        },
      },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: {
        code: 401,
        message: "The request you have made requires authentication.",
        title: "Unauthorized",
      },
    });
  });

  it("issues a token for the non-ASCII password (user domain by name, project by name + domain id)", async () => {
    expect(/[^\x20-\x7e]/.test(env.password)).toBe(true);
    const res = await postTokens(env.authUrl, {
      auth: {
        identity: {
          methods: ["password"],
          password: {
            user: { name: env.userName, domain: { name: env.domainName }, password: env.password },
          },
        },
        scope: { project: { name: env.projectName, domain: { id: env.domainId } } },
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-subject-token")).toMatch(/^gAAAAA[\w-]+$/);
    const { token: t } = (await res.json()) as TokenBody;
    expect(t.methods).toEqual(["password"]);
    expect(t.user).toMatchObject({ id: env.userId, name: env.userName, domain: { id: env.domainId } });
    expect(t.project).toMatchObject({
      id: env.projectId,
      name: env.projectName,
      domain: { id: env.domainId },
    });
    expect(Date.parse(t.expires_at)).toBeGreaterThan(Date.now());
  });
});
