/**
 * Version discovery and routing: Keystone's `/` (300) and `/v3` (200) documents, its 404 and 405
 * answers, request ids, and the request log tests assert on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { call, postJson } from "./helpers";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());

const version = (url: string) => ({
  id: "v3.14",
  status: "stable",
  updated: "2020-04-07T00:00:00Z",
  links: [{ rel: "self", href: `${url}/v3/` }],
  "media-types": [{ base: "application/json", type: "application/vnd.openstack.identity-v3+json" }],
});

describe("version discovery", () => {
  it("GET / answers 300 with every version and a Location", async () => {
    const r = await call(`${emu.url}/`);
    expect(r.status).toBe(300);
    expect(r.headers.get("location")).toBe(`${emu.url}/v3/`);
    expect(r.json).toEqual({ versions: { values: [version(emu.url)] } });
  });

  it("GET /v3 and /v3/ answer 200 with the v3 document; HEAD has no body", async () => {
    for (const path of ["/v3", "/v3/"]) {
      const r = await call(`${emu.url}${path}`);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("application/json");
      expect(r.json).toEqual({ version: version(emu.url) });
    }
    const head = await call(emu.identityUrl, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("tags every answer with x-openstack-request-id and Vary: X-Auth-Token", async () => {
    const r = await call(emu.identityUrl);
    expect(r.headers.get("x-openstack-request-id")).toMatch(/^req-[0-9a-f-]{36}$/);
    expect(r.headers.get("vary")).toBe("X-Auth-Token");
  });
});

describe("routing", () => {
  it("answers an unknown path with Keystone's (Flask's) HTML 404", async () => {
    const r = await call(`${emu.identityUrl}/nope`);
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(r.text).toContain("<title>404 Not Found</title>");
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const r = await call(`${emu.identityUrl}/auth/tokens`, { method: "PUT" });
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("HEAD, POST, GET, OPTIONS, DELETE");
    expect(r.json).toEqual({ message: "The method is not allowed for the requested URL." });
    expect((await call(emu.identityUrl, { method: "POST" })).status).toBe(405);
  });

  it("records method, path, query, lower-case headers and the parsed body", async () => {
    emu.requests.length = 0;
    await postJson(`${emu.identityUrl}/auth/tokens?nocatalog`, { auth: {} }, { "X-Custom": "yes" });
    expect(emu.requests).toHaveLength(1);
    expect(emu.requests[0]).toMatchObject({
      method: "POST",
      path: "/v3/auth/tokens",
      query: "nocatalog",
      headers: { "x-custom": "yes", "content-type": "application/json" },
      body: { auth: {} },
      rawBody: '{"auth":{}}',
    });
  });
});
