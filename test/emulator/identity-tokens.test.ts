/**
 * GET/HEAD/DELETE /v3/auth/tokens: validate, check, revoke, and expiry (real time and injected clock).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { call, issue, passwordAuth, postJson } from "./helpers";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());

const tokens = (e: Emulator, method: string, auth?: string, subject?: string) => {
  const headers: Record<string, string> = {};
  if (auth !== undefined) headers["X-Auth-Token"] = auth;
  if (subject !== undefined) headers["X-Subject-Token"] = subject;
  return call(`${e.identityUrl}/auth/tokens`, { method, headers });
};

describe("validate, check, revoke", () => {
  it("validates a token with itself or another token of the same user: 200, same body, subject echoed", async () => {
    const a = await issue(emu);
    const b = await issue(emu);
    const self = await tokens(emu, "GET", a.token, a.token);
    expect(self.status).toBe(200);
    expect(self.headers.get("x-subject-token")).toBe(a.token);
    expect(self.json).toEqual(a.json);
    expect((await tokens(emu, "GET", b.token, a.token)).json.token.audit_ids).toEqual(a.json.token.audit_ids);
    const head = await tokens(emu, "HEAD", a.token, a.token);
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("revokes with 204; then 404 'Failed to validate token' for GET, HEAD and DELETE", async () => {
    const a = await issue(emu);
    const b = await issue(emu);
    const del = await tokens(emu, "DELETE", b.token, a.token);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    const gone = await tokens(emu, "GET", b.token, a.token);
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({
      error: { code: 404, message: "Failed to validate token", title: "Not Found" },
    });
    expect((await tokens(emu, "HEAD", b.token, a.token)).status).toBe(404);
    expect((await tokens(emu, "DELETE", b.token, a.token)).status).toBe(404);
    expect((await tokens(emu, "GET", a.token, a.token)).status).toBe(401);
  });

  it("answers 404 'Could not recognize Fernet token' for garbage, 401 for a bad or missing X-Auth-Token", async () => {
    const a = await issue(emu);
    const garbage = await tokens(emu, "GET", a.token, `gAAAAAB${"x".repeat(170)}`);
    expect(garbage.status).toBe(404);
    expect(garbage.json.error.message).toBe("Could not recognize Fernet token");
    expect((await tokens(emu, "GET", "garbage", a.token)).status).toBe(401);
    const missing = await tokens(emu, "GET", undefined, a.token);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe(`Keystone uri="${emu.identityUrl}"`);
  });

  it("answers 403 without X-Subject-Token or for another user's token", async () => {
    const a = await issue(emu);
    const none = await tokens(emu, "GET", a.token);
    expect(none.status).toBe(403);
    expect(none.json.error.message).toBe(
      "You are not authorized to perform the requested action: identity:validate_token.",
    );
    const u = emu.seed.users.unicode;
    const other = await postJson(
      `${emu.identityUrl}/auth/tokens`,
      passwordAuth({ id: u.id, password: u.password }),
    );
    expect((await tokens(emu, "GET", a.token, other.headers.get("x-subject-token") ?? "")).status).toBe(403);
  });
});

describe("expiry", () => {
  it("expires tokens after tokenTtlSeconds of real time", async () => {
    const short = await startEmulator({ tokenTtlSeconds: 1 });
    try {
      const a = await issue(short);
      expect((await tokens(short, "GET", a.token, a.token)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1500));
      const b = await issue(short);
      expect((await tokens(short, "GET", b.token, a.token)).status).toBe(404);
      expect((await tokens(short, "GET", a.token, a.token)).status).toBe(401);
    } finally {
      await short.close();
    }
  });

  it("stamps issued_at/expires_at from the injected clock and expires by it", async () => {
    let now = Date.parse("2026-11-22T00:30:00.000Z");
    const clocked = await startEmulator({ tokenTtlSeconds: 3600, now: () => new Date(now) });
    try {
      const a = await issue(clocked);
      expect(a.json.token.issued_at).toBe("2026-11-22T00:30:00.000000Z");
      expect(a.json.token.expires_at).toBe("2026-11-22T01:30:00.000000Z");
      now += 3600_000;
      expect((await tokens(clocked, "GET", a.token, a.token)).status).toBe(401);
    } finally {
      await clocked.close();
    }
  });
});
