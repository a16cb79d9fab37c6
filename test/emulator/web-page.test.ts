/**
 * The emulator cannot be driven by a web page: the knob control takes only application/json, a
 * page of another origin is refused, a Host that does not name the emulator is refused (DNS
 * rebinding) and never reflected into the catalog; bodies and the request log are bounded; every
 * answer carries the marker header, and the command line says once on stderr that it talks to one.
 */
import { request } from "node:http";
import { connect } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { MAX_BODY_BYTES } from "../../emulator/http";
import { defaultKnobs, KNOBS_PATH } from "../../emulator/knobs";
import { parseEmulatorArgs } from "../../emulator/main";
import { MAX_RECORDED_BYTES, MAX_RECORDED_REQUESTS } from "../../emulator/server";
import { runCli } from "../helpers/cli";
import { startHostileServer } from "../hostile/server";
import { appCredAuth, call } from "./helpers";

let emu: Emulator;
let port: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  port = new URL(emu.url).port;
});
afterEach(() => {
  emu.resetKnobs();
  emu.requests.length = 0;
});
afterAll(() => emu.close());

const knobs = JSON.stringify({ billing: { status: 503 } });

/** raw sends one request with node:http, which (unlike fetch) lets a test set Host. */
function raw(
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((ok, fail) => {
    const req = request(
      `${emu.url}${path}`,
      { method: opts.method ?? "GET", headers: opts.headers },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => {
          text += d;
        });
        res.on("end", () => ok({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on("error", fail);
    req.end(opts.body);
  });
}

describe("the knob control refuses what a web page can send", () => {
  it.each([
    [
      "text/plain from https://evil.example",
      { "Content-Type": "text/plain", Origin: "https://evil.example" },
      403,
    ],
    ["text/plain, no Origin", { "Content-Type": "text/plain" }, 415],
    ["a form", { "Content-Type": "application/x-www-form-urlencoded" }, 415],
    ["multipart", { "Content-Type": "multipart/form-data; boundary=x" }, 415],
    ["no Content-Type", {}, 415],
    [
      "application/json from https://evil.example",
      { "Content-Type": "application/json", Origin: "https://evil.example" },
      403,
    ],
    [
      "application/json from a sandboxed frame (Origin: null)",
      { "Content-Type": "application/json", Origin: "null" },
      403,
    ],
    [
      "application/json from http://127.0.0.1.evil.example",
      { "Content-Type": "application/json", Origin: "http://127.0.0.1.evil.example:1" },
      403,
    ],
  ] as const)("a POST of %s: refused, no knob changed", async (_, headers, status) => {
    for (const method of ["POST", "PUT", "PATCH"]) {
      const r = await raw(KNOBS_PATH, { method, headers: { ...headers }, body: knobs });
      expect(r.status).toBe(status);
      expect(JSON.parse(r.text).error.message).toMatch(
        status === 403 ? /refused/ : /Content-Type: application\/json/,
      );
    }
    expect(emu.knobs).toEqual(defaultKnobs());
  });

  it("a DELETE or GET from another origin is refused too", async () => {
    emu.knobs.billing.status = 503;
    expect(
      (await raw(KNOBS_PATH, { method: "DELETE", headers: { Origin: "https://evil.example" } })).status,
    ).toBe(403);
    expect(emu.knobs.billing.status).toBe(503);
    const read = await raw(KNOBS_PATH, { headers: { Origin: "https://evil.example" } });
    expect(read.status).toBe(403);
    expect(read.text).not.toMatch(/503/);
  });

  it.each([
    ["http://localhost:PORT", () => `http://localhost:${port}`],
    ["http://127.0.0.1:PORT", () => `http://127.0.0.1:${port}`],
    ["http://[::1]:PORT", () => `http://[::1]:${port}`],
  ])("takes application/json from %s", async (_, origin) => {
    const r = await raw(KNOBS_PATH, {
      method: "PUT",
      headers: { "Content-Type": "application/json; charset=utf-8", Origin: origin() },
      body: knobs,
    });
    expect(r.status).toBe(200);
    expect(emu.knobs.billing.status).toBe(503);
  });
});

describe("a Host that does not name the emulator is refused (DNS rebinding)", () => {
  const issueBody = () => {
    const c = emu.seed.applicationCredentials.demo;
    return JSON.stringify(appCredAuth({ id: c.id, secret: c.secret }));
  };

  it.each([
    ["evil.example:PORT", () => `evil.example:${port}`],
    ["evil.example", () => "evil.example"],
    ["127.0.0.1.nip.io:PORT", () => `127.0.0.1.nip.io:${port}`],
    ["127.0.0.1:PORT@evil.example", () => `127.0.0.1:${port}@evil.example`],
    ["localhost.evil.example", () => "localhost.evil.example"],
  ])("Host %s: 403 everywhere, no token issued, nothing reflected", async (_, host) => {
    const h = host();
    const issued = await raw("/v3/auth/tokens", {
      method: "POST",
      headers: { Host: h, "Content-Type": "application/json" },
      body: issueBody(),
    });
    expect(issued.status).toBe(403);
    expect(issued.headers["x-subject-token"]).toBeUndefined();
    expect(issued.text).not.toContain("evil");
    expect(issued.text).not.toContain("nip.io");
    for (const path of ["/", "/v3", KNOBS_PATH]) {
      const r = await raw(path, { headers: { Host: h } });
      expect(r.status, path).toBe(403);
      expect(r.text).not.toContain("evil");
    }
    const set = await raw(KNOBS_PATH, {
      method: "PUT",
      headers: { Host: h, "Content-Type": "application/json" },
      body: knobs,
    });
    expect(set.status).toBe(403);
    expect(emu.knobs).toEqual(defaultKnobs());
    expect(emu.requests).toEqual([]);
  });

  it.each([
    ["localhost:PORT", () => `localhost:${port}`],
    ["127.0.0.1:PORT", () => `127.0.0.1:${port}`],
    ["[::1]:PORT", () => `[::1]:${port}`],
    ["LOCALHOST (no port)", () => "LOCALHOST"],
  ])("Host %s is taken, and the catalog names it", async (_, host) => {
    const r = await raw("/v3/auth/tokens", {
      method: "POST",
      headers: { Host: host(), "Content-Type": "application/json" },
      body: issueBody(),
    });
    expect(r.status).toBe(201);
    const urls = JSON.parse(r.text).token.catalog.flatMap((s: { endpoints: { url: string }[] }) =>
      s.endpoints.map((e) => e.url),
    );
    expect(urls).toContain(`http://${host().toLowerCase()}/v3`);
  });

  it("--allow-host takes host names separated by commas, and refuses anything else (exit 2)", () => {
    expect(parseEmulatorArgs(["--allow-host", "emulator, ci-runner"]).options.allowedHosts).toEqual([
      "emulator",
      "ci-runner",
    ]);
    for (const bad of ["", "evil.example:80", "a b", "*", "http://x"]) {
      expect(() => parseEmulatorArgs(["--allow-host", bad])).toThrow(/--allow-host takes host names/);
    }
  });

  it("takes the names given in allowedHosts (--allow-host), still no others", async () => {
    const named = await startEmulator({ allowedHosts: ["emulator"] });
    try {
      const p = new URL(named.url).port;
      const get = (host: string) =>
        new Promise<number>((ok, fail) => {
          const req = request(`${named.url}/v3`, { headers: { Host: host } }, (res) => {
            res.resume();
            ok(res.statusCode ?? 0);
          });
          req.on("error", fail);
          req.end();
        });
      expect(await get(`emulator:${p}`)).toBe(200);
      expect(await get(`evil.example:${p}`)).toBe(403);
    } finally {
      await named.close();
    }
  });
});

describe("bounded: bodies and the request log", () => {
  it("refuses a 10 MB body with 413 at once, keeps none of it, and goes on serving", async () => {
    for (const path of [KNOBS_PATH, "/bill/graphql", "/v3/auth/tokens"]) {
      const started = performance.now();
      const r = await call(`${emu.url}${path}`, {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: `{"billing":{"status":503},"x":"${"x".repeat(10 * 1024 * 1024)}"}`,
      });
      expect(r.status).toBe(413);
      expect(r.json.error.message).toMatch(new RegExp(`larger than ${MAX_BODY_BYTES} bytes`));
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    expect(emu.knobs).toEqual(defaultKnobs());
    expect(emu.requests).toEqual([]);
    expect((await call(`${emu.url}/v3`)).status).toBe(200);
  });

  it("refuses a chunked body past the bound (no Content-Length) with 413", async () => {
    const status = await new Promise<number>((ok, fail) => {
      const req = request(
        `${emu.url}/bill/graphql`,
        { method: "POST", headers: { "Content-Type": "application/json" } },
        (res) => {
          res.resume();
          ok(res.statusCode ?? 0);
        },
      );
      req.on("error", (e: NodeJS.ErrnoException) =>
        e.code === "EPIPE" || e.code === "ECONNRESET" ? undefined : fail(e),
      );
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const write = () => {
        while (sent < 4 * MAX_BODY_BYTES) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", write);
        }
        req.end();
      };
      write();
    });
    expect(status).toBe(413);
    expect(emu.requests).toEqual([]);
  });

  it(`keeps the last ${MAX_RECORDED_REQUESTS} of 20,000 requests, and at most ${MAX_RECORDED_BYTES} bytes of large ones`, async () => {
    // 4 connections of 5,000 pipelined requests each: the server sees 20,000 requests in a few seconds
    const total = 20_000;
    const perSocket = total / 4;
    const heapBefore = process.memoryUsage().heapUsed;
    await Promise.all(
      Array.from(
        { length: 4 },
        (_, s) =>
          new Promise<void>((ok, fail) => {
            const socket = connect(Number(port), "127.0.0.1");
            let seen = 0;
            let tail = "";
            socket.setEncoding("latin1");
            socket.on("data", (d: string) => {
              const text = tail + d;
              seen += text.split("HTTP/1.1 200").length - 1;
              tail = text.slice(-16);
              if (seen >= perSocket) {
                socket.destroy();
                ok();
              }
            });
            socket.on("error", fail);
            let out = "";
            for (let i = 0; i < perSocket; i++) {
              out += `GET /v3?i=${s * perSocket + i} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
            }
            socket.write(out);
          }),
      ),
    );
    expect(emu.requests).toHaveLength(MAX_RECORDED_REQUESTS);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);

    // cleared by a test, the log counts again from empty
    emu.requests.length = 0;
    const big = "y".repeat(MAX_BODY_BYTES - 1024);
    for (let i = 0; i < 40; i++) {
      await call(`${emu.url}/bill/graphql`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: big,
      });
    }
    const kept = emu.requests.reduce((sum, r) => sum + r.rawBody.length, 0);
    expect(kept).toBeLessThanOrEqual(MAX_RECORDED_BYTES);
    expect(emu.requests.length).toBeGreaterThan(10);
    expect(emu.requests.length).toBeLessThan(40);
  }, 120_000);
});

describe("every answer carries the marker header", () => {
  it.each([
    ["GET /", { path: "/" }],
    ["GET /v3", { path: "/v3" }],
    ["HEAD /v3", { path: "/v3", method: "HEAD" }],
    ["GET /nowhere (404)", { path: "/nowhere" }],
    ["POST /v3/auth/tokens (400)", { path: "/v3/auth/tokens", method: "POST", body: "{" }],
    ["POST /bill/graphql (401)", { path: "/bill/graphql", method: "POST", body: "{}" }],
    ["GET the knobs", { path: KNOBS_PATH }],
    ["PUT the knobs as text (415)", { path: KNOBS_PATH, method: "PUT", body: knobs }],
    ["a page's Origin (403)", { path: "/v3", headers: { Origin: "https://evil.example" } }],
  ] as const)("%s", async (_, r) => {
    const opts: { method?: string; headers?: Record<string, string>; body?: string } = { ...r };
    const a = await raw(r.path, opts);
    expect(a.headers["x-costgate-emulator"]).toBe("1");
  });

  it("also with an injected fault (HTML page, status)", async () => {
    emu.knobs.identity.htmlError = true;
    expect((await raw("/v3", {})).headers["x-costgate-emulator"]).toBe("1");
    emu.resetKnobs();
    emu.knobs.billing.status = 503;
    expect((await raw("/bill/graphql", { method: "POST", body: "{}" })).headers["x-costgate-emulator"]).toBe(
      "1",
    );
  });
});

describe("the command line says it talks to the emulator, on stderr only", () => {
  const env = () => {
    const c = emu.seed.applicationCredentials.demo;
    return {
      OS_AUTH_URL: emu.identityUrl,
      OS_APPLICATION_CREDENTIAL_ID: c.id,
      OS_APPLICATION_CREDENTIAL_SECRET: c.secret,
    };
  };

  it("`costgate token`: the token alone on stdout, one notice line on stderr", async () => {
    const r = await runCli(["token"], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^[A-Za-z0-9_=-]+\n$/);
    expect(r.stderr).toBe(`costgate: talking to the costgate emulator at ${emu.url} (not a real cloud)\n`);
  });

  it("says it once for a run of many requests", async () => {
    const r = await runCli(["balance", "--project-id", "4242"], {
      COSTGATE_BILLING_URL: emu.billingUrl,
      COSTGATE_BILLING_TOKEN: emu.seed.billing.token,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/talking to the costgate emulator/g)).toHaveLength(1);
  });

  it("says nothing for an endpoint without the marker", async () => {
    const srv = await startHostileServer();
    try {
      const r = await runCli(["token"], {
        OS_AUTH_URL: srv.authUrl,
        OS_APPLICATION_CREDENTIAL_ID: "id",
        OS_APPLICATION_CREDENTIAL_SECRET: "secret",
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe("");
    } finally {
      await srv.close();
    }
  });
});
