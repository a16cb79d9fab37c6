/**
 * `costgate check` over many projects (issue 21 item 7, fifth pass), held as behaviour rather than timed:
 * what the command loads is what it needs — none of the identity's settings, no other command's options, no
 * node:crypto unless a file is written, none of undici's proxy and streaming API unless a proxy is used — and
 * a proxy still loads them and is used. Each request is read through undici's `dispatch` rather than
 * `request()` and a body stream: on any body, cut into any chunks, with repeated headers or an informational
 * answer first, `send` reads what `request()` and `body.text()` read; a signal aborts it at any stage. And the rounding of figures without big.js (`cents`, `tenths`,
 * `tenthsDown` on a number) gives what big.js gives on any double, hostile ones included, in bounded time.
 * Real processes against the emulator and a forward proxy on 127.0.0.1.
 */
import Big = require("big.js");

import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";
import { undici } from "../../provider/http/dispatcher";
import { send } from "../../provider/http/send";
import { cents, tenths, tenthsDown } from "../../provider/money";
import { type ForwardProxy, startForwardProxy } from "../proxy/forward-proxy";

const BIN = resolve(__dirname, "../../bin/costgate");
/** scripts/calendar.js's preload (test tooling that moves the clock), not a file the command loads. */
const SHIFTED_CLOCK = /[/\\]test[/\\]helpers[/\\]shifted-clock\.cjs$/;
const RUNS = { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 300) };

let dir: string;
let emu: Emulator;
let proxy: ForwardProxy;
let preload: string;
let config: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "costgate-perf6-"));
  emu = await startEmulator({ port: 0 });
  proxy = await startForwardProxy();
  const ids = emu.addSyntheticProjects(3, 61_000);
  config = join(dir, "check.json");
  writeFileSync(config, JSON.stringify({ projects: ids.map((projectId) => ({ projectId, minBalance: 1 })) }));
  // a preload that writes, at exit, every module file and built-in module the process loaded
  preload = join(dir, "loaded.js");
  writeFileSync(
    preload,
    `process.on("exit", () => require("node:fs").writeFileSync(process.env.LOADED_OUT, JSON.stringify({
  files: Object.keys(require.cache), builtins: process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")),
})));\n`,
  );
});
afterAll(async () => {
  await proxy?.close();
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** run starts the built command with the preload; its exit code, output and what it loaded. */
function run(args: string[], env: Record<string, string> = {}) {
  const out = join(dir, `loaded-${Math.random().toString(36).slice(2)}.json`);
  return new Promise<{ code: number; stdout: string; stderr: string; files: string[]; builtins: string[] }>(
    (ok) => {
      execFile(
        process.execPath,
        ["-r", preload, BIN, ...args],
        {
          env: {
            PATH: process.env.PATH ?? "",
            HOME: "/nonexistent",
            LOADED_OUT: out,
            COSTGATE_BILLING_URL: emu.billingUrl,
            COSTGATE_BILLING_TOKEN: emu.seed.billing.token,
            ...env,
          },
          timeout: 30_000,
        },
        (err, stdout, stderr) => {
          const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
          const { files, builtins } = JSON.parse(readFileSync(out, "utf8")) as {
            files: string[];
            builtins: string[];
          };
          ok({
            code,
            stdout,
            stderr,
            files: files.filter((f) => f !== preload && !SHIFTED_CLOCK.test(f)),
            builtins,
          });
        },
      );
    },
  );
}

const ours = (files: string[]) =>
  files.flatMap((f) => (f.includes("/dist/") ? [f.replace(/.*\/dist\//, "")] : []));
const undiciFiles = (files: string[]) =>
  files.flatMap((f) =>
    f.includes("/node_modules/undici/") ? [f.replace(/.*\/node_modules\/undici\//, "")] : [],
  );

/** What `check` of billing projects never needs at start: each a module another command or a proxy needs. */
const NOT_FOR_CHECK = [
  /^provider\/settings\.js$/,
  /^provider\/identity\/(auth|urls|tokens|results)\.js$/,
  /^provider\/own\.js$/,
  /^cli\/options\/(index|cost|emulator|identity|watch)\.js$/,
  /^cli\/commands\/(billing|token|cost|report|watch|emulator|demo)\.js$/,
];

describe("what check over many projects loads", () => {
  it("no identity settings, no other command's options, no node:crypto, no proxy or streaming API of undici", async () => {
    const r = await run(["check", "--config", config, "--json"]);
    expect([0, 1], r.stderr).toContain(r.code);
    expect(JSON.parse(r.stdout).projects).toHaveLength(3);
    const own = ours(r.files);
    expect(own).toContain("provider/billing/settings.js");
    expect(own.filter((f) => NOT_FOR_CHECK.some((re) => re.test(f)))).toEqual([]);
    // node:crypto (~8 ms to load) only names a report's temporary file
    expect(r.builtins.filter((m) => /^NativeModule (crypto|http2)$/.test(m))).toEqual([]);
    const u = undiciFiles(r.files);
    expect(u).toContain("lib/api/api-request.js");
    expect(u.filter((f) => /proxy-agent|socks5|api-(stream|pipeline|upgrade|connect)/.test(f))).toEqual([]);
    expect(r.files.filter((f) => f.includes("/node_modules/zod/"))).toEqual([]);
  });

  it("through a proxy, the ProxyAgent loads when first used and every request goes through it", async () => {
    proxy.requests.length = 0;
    const r = await run(["check", "--config", config, "--json"], { HTTP_PROXY: proxy.url });
    expect([0, 1], r.stderr).toContain(r.code);
    expect(JSON.parse(r.stdout).projects).toHaveLength(3);
    expect(proxy.requests.length).toBeGreaterThanOrEqual(6);
    expect(proxy.requests.every((q) => q.target.startsWith(`${emu.billingUrl}/bill/graphql`))).toBe(true);
    expect(undiciFiles(r.files)).toContain("lib/dispatcher/proxy-agent.js");
    expect(r.builtins).not.toContain("NativeModule http2");
  });

  it("a report file is still written whole: node:crypto names its temporary file when one is written", async () => {
    const html = join(dir, "report.html");
    const r = await run(["report", "--project-id", "61000", "--html", html]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(html, "utf8")).toMatch(/^<!doctype html>/i);
    expect(r.builtins).toContain("NativeModule crypto");
  });
});

/** big.js's rounding of a number, as cents, tenths and tenthsDown did it before (never -0). */
const byBig = (v: number, dp: number, mode: Big.RoundingMode) => {
  const n = new Big(v).round(dp, mode).toNumber();
  return n === 0 ? 0 : n;
};

/** Doubles of every kind: any double, money-sized ones, exact halves at the rounding digit, tiny and huge. */
const anyNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -1e13, max: 1e13, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }).map((i) => i / 1000),
  fc.integer({ min: -100_000_000_000_000, max: 100_000_000_000_000 }).map((i) => i / 100 + 0.005),
  fc.integer({ min: -100_000_000_000, max: 100_000_000_000 }).map((i) => i / 10 + 0.05),
  fc.constantFrom(
    0,
    -0,
    1e-7,
    -1e-7,
    5e-324,
    1e21,
    -1e21,
    9_999_999_999_999.994,
    999_999_999_999.995,
    1e13,
    0.045,
    2.675,
    -2.675,
  ),
);

describe("rounding a number without big.js", () => {
  it("cents, tenths and tenthsDown give big.js's result on any double", () => {
    fc.assert(
      fc.property(anyNumber, (v) => {
        expect(Object.is(cents(v), byBig(v, 2, Big.roundHalfUp)), `cents(${v})`).toBe(true);
        expect(Object.is(tenths(v), byBig(v, 1, Big.roundHalfUp)), `tenths(${v})`).toBe(true);
        expect(Object.is(tenthsDown(v), byBig(v, 1, Big.roundDown)), `tenthsDown(${v})`).toBe(true);
      }),
      { numRuns: RUNS.numRuns * 30 },
    );
  });

  it("what is not a finite number is refused as before, and big decimals and texts still go through big.js", () => {
    for (const v of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => cents(v)).toThrow(/Invalid number/);
      expect(() => tenths(v)).toThrow(/Invalid number/);
    }
    expect(cents("12.345")).toBe(12.35);
    expect(cents(new Big("-0.005"))).toBe(-0.01);
    expect(tenthsDown("9.96")).toBe(9.9);
  });

  it("takes bounded time: 200,000 roundings of hostile doubles in well under a second each", () => {
    const values = fc.sample(anyNumber, { numRuns: 200_000, seed: 21 });
    const started = performance.now();
    let sink = 0;
    for (const v of values) sink += cents(v) + tenths(v) + tenthsDown(v);
    expect(typeof sink).toBe("number");
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

/** One answer of the hostile server: status, headers (a list repeats one), the body's chunks as bytes. */
interface Answer {
  status: number;
  headers: [string, string][];
  chunks: Buffer[];
  informational?: boolean;
}

let server: Server;
let origin: string;
let next: Answer;
const received: string[] = [];

/** Bytes of every kind: UTF-8 text (astral and BOM included), invalid sequences, nothing. */
const anyBody = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 200 }).map((t) => Buffer.from(t, "utf8")),
  fc.string({ maxLength: 50 }).map((t) => Buffer.from(`\ufeff${t}`, "utf8")),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
  fc.constant(Buffer.alloc(0)),
);

/** A body cut into chunks at arbitrary places (multi-byte characters split across them). */
const chunked = anyBody.chain((body) =>
  fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, body.length - 1) }), { maxLength: 4 }).map((cuts) => {
    const at = [0, ...cuts.filter((c) => c < body.length).sort((a, b) => a - b), body.length];
    return at.slice(1).map((end, i) => body.subarray(at[i], end));
  }),
);

const anyAnswer = fc.record({
  status: fc.constantFrom(200, 201, 204, 400, 401, 404, 429, 500, 503),
  headers: fc.array(
    fc.tuple(
      fc.constantFrom("x-a", "x-request-id", "retry-after", "x-b"),
      fc.stringMatching(/^[a-z0-9 ,;=]{0,12}$/),
    ),
    { maxLength: 5 },
  ),
  chunks: chunked,
  informational: fc.boolean(),
});

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(req.url ?? "");
    const a = next;
    if (a.informational) res.writeProcessing();
    const headers: Record<string, string[]> = {};
    for (const [k, v] of a.headers) headers[k] = [...(headers[k] ?? []), v];
    res.writeHead(a.status, headers);
    if (a.status !== 204) for (const c of a.chunks) res.write(c);
    res.end();
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

/** What request() and body.text() read of the same answer: the reference the exchange must equal. */
async function byRequest(a: Answer) {
  next = a;
  const agent = new (undici().Agent)();
  try {
    const res = await agent.request({ origin, path: "/ref", method: "GET" });
    const text = await res.body.text();
    const flat: Record<string, string | undefined> = {};
    const repeated: string[] = [];
    for (const [k, v] of Object.entries(res.headers)) {
      if (Array.isArray(v) && v.length > 1) repeated.push(k);
      flat[k] = Array.isArray(v) ? v.join(", ") : v;
    }
    return { status: res.statusCode, headers: flat, text, repeated };
  } finally {
    await agent.close();
  }
}

async function bySend(a: Answer, signal?: AbortSignal) {
  next = a;
  const r = await send({
    service: "billing",
    method: "GET",
    url: `${origin}/send`,
    transport: { retry: false, ...(signal ? { signal } : {}) },
  });
  return { status: r.status, headers: r.headers, text: r.text, repeated: r.repeatedHeaders ?? [] };
}

/** Headers both sides see, without those that name the moment or the connection. */
const stable = (h: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(h).filter(([k]) => !["date", "keep-alive", "connection"].includes(k)));

describe("send reads each answer through dispatch as request() and body.text() read it", () => {
  it("any body in any chunks, repeated headers, an informational answer first: the same status, headers and text", async () => {
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(anyAnswer, async (a) => {
        const ref = await byRequest(a);
        const got = await bySend(a);
        expect(got.status).toBe(ref.status);
        expect(got.text).toBe(ref.text);
        expect(stable(got.headers)).toEqual(stable(ref.headers));
        expect(got.repeated.sort()).toEqual(ref.repeated.sort());
      }),
      { numRuns: RUNS.numRuns },
    );
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it("a byte-order mark is skipped, as body.text() skips it, and only at the start", async () => {
    const body = Buffer.from('\ufeff{"a":"\ufeff"}', "utf8");
    const got = await bySend({ status: 200, headers: [], chunks: [body.subarray(0, 2), body.subarray(2)] });
    expect(got.text).toBe('{"a":"\ufeff"}');
  });

  it("a caller's signal aborts a request mid-body at once, and an aborted one is never sent", async () => {
    const controller = new AbortController();
    // an answer that never ends: headers, one chunk, then nothing
    const hanging = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("{");
    });
    await new Promise<void>((ok) => hanging.listen(0, "127.0.0.1", ok));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`;
    try {
      const started = performance.now();
      setTimeout(() => controller.abort(new Error("stopped by the caller")), 200);
      const error = await send({
        service: "billing",
        method: "GET",
        url,
        transport: { retry: false, signal: controller.signal },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(performance.now() - started).toBeLessThan(3_000);
      received.length = 0;
      const again = await bySend({ status: 200, headers: [], chunks: [] }, controller.signal).catch(
        (e: unknown) => e,
      );
      expect(again).toBeInstanceOf(Error);
      expect(received).toEqual([]);
    } finally {
      hanging.closeAllConnections();
      await new Promise((ok) => hanging.close(ok));
    }
  });
});
