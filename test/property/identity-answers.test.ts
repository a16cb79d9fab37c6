/**
 * Properties of the token, time and catalog readers over arbitrary Keystone answers from the hostile
 * endpoint on 127.0.0.1: whatever issueToken accepts keeps every rule (one token68 token, a future
 * expiry within a year, http(s) catalog URLs without user info, names without control characters);
 * anything else is a ResponseError; each answer is read in bounded time and memory.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isResponseError } from "../../provider/errors";
import {
  catalogUrlProblem,
  MAX_NAME_CHARS,
  MAX_URL_CHARS,
  parseKeystoneTime,
  type Token,
} from "../../provider/identity/results";
import { issueToken, MAX_TOKEN_CHARS, MAX_TOKEN_LIFETIME_MS } from "../../provider/identity/tokens";
import {
  type HostileAnswer,
  type HostileServer,
  keystoneTokenBody,
  startHostileServer,
} from "../hostile/server";

// PROPERTY_RUNS=2000 for a longer hunt; the suite keeps runs bounded.
const RUNS = { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 100) };
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const appCred = {
  type: "application_credential" as const,
  applicationCredentialId: "prop",
  applicationCredentialSecret: "prop-secret",
};

let srv: HostileServer;
let next: HostileAnswer = { status: 500 };
beforeAll(async () => {
  srv = await startHostileServer(() => next);
});
afterAll(() => srv.close());

/** Every rule a taken token keeps. */
function expectSound(t: Token, now: number): void {
  expect(t.id.length).toBeLessThanOrEqual(MAX_TOKEN_CHARS);
  expect(t.id).toMatch(/^[A-Za-z0-9\-._~+/]+=*$/);
  const expires = Date.parse(t.expiresAt);
  expect(expires).toBeGreaterThan(now - 5_000);
  expect(expires).toBeLessThanOrEqual(Date.now() + MAX_TOKEN_LIFETIME_MS);
  if (t.issuedAt) expect(Date.parse(t.issuedAt)).toBeLessThanOrEqual(expires);
  const names = [
    t.user.id,
    t.user.name,
    t.project?.id,
    t.project?.name,
    ...t.roles.flatMap((r) => [r.id, r.name]),
  ];
  for (const n of names) {
    if (n === undefined) continue;
    expect(n.length).toBeLessThanOrEqual(MAX_NAME_CHARS);
    expect(n).not.toMatch(CONTROL);
  }
  for (const s of t.catalog) {
    for (const e of s.endpoints) {
      expect(e.url.length).toBeLessThanOrEqual(MAX_URL_CHARS);
      const u = new URL(e.url);
      expect(["http:", "https:"]).toContain(u.protocol);
      expect(u.username + u.password).toBe("");
    }
  }
}

/** A JSON value a hostile endpoint might put anywhere. */
const anyValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    "javascript:alert(1)",
    "file:///etc/passwd",
    "https://u:p@cloud.example/",
    "2026-02-30T00:00:00Z",
    "1970-01-01T00:00:00.000000Z",
    "9999-12-31T23:59:59.999999Z",
    "",
  ),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/** Paths into a token body, each a field costgate reads. */
const PATHS = [
  ["expires_at"],
  ["issued_at"],
  ["methods"],
  ["methods", 0],
  ["audit_ids", 0],
  ["user", "id"],
  ["user", "name"],
  ["user", "domain"],
  ["project", "name"],
  ["roles", 0, "name"],
  ["roles"],
  ["catalog", 0, "type"],
  ["catalog", 0, "endpoints", 0, "url"],
  ["catalog", 0, "endpoints", 0, "interface"],
  ["catalog", 0, "endpoints", 0, "region_id"],
  ["catalog"],
] as const;

function setAt(body: unknown, path: readonly (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = (copy as { token: Record<string | number, unknown> }).token;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
  return copy;
}

async function readOne(answer: HostileAnswer): Promise<void> {
  next = answer;
  const now = Date.now();
  const started = performance.now();
  try {
    expectSound(await issueToken({ authUrl: srv.authUrl, transport: { retry: false } }, appCred), now);
  } catch (e) {
    if (!isResponseError(e)) throw new Error(`not a ResponseError: ${String(e)}`, { cause: e });
  }
  expect(performance.now() - started).toBeLessThan(2_000);
}

describe("issueToken over arbitrary answers", () => {
  it("one field changed to anything: a sound token or a ResponseError", async () => {
    const base = keystoneTokenBody("http://127.0.0.1:1");
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATHS), anyValue, (path, value) =>
        readOne({
          status: 201,
          headers: { "x-subject-token": "gAAAAABprop" },
          body: setAt(base, path, value),
        }),
      ),
      RUNS,
    );
  });

  it("any X-Subject-Token, one or several: a sound token or a ResponseError", async () => {
    const body = keystoneTokenBody("http://127.0.0.1:1");
    // what node may send as a header value: tab and printable ASCII, no surrounding blanks
    const headerText = fc.stringMatching(/^[\t\x20-\x7e]{1,60}$/).filter((s) => s.trim() === s);
    const header = fc.oneof(
      headerText,
      fc.array(headerText, { minLength: 2, maxLength: 3 }),
      fc.constant("A".repeat(MAX_TOKEN_CHARS + 1)),
    );
    await fc.assert(
      fc.asyncProperty(header, (value) =>
        readOne({ status: 201, headers: { "x-subject-token": value }, body }),
      ),
      RUNS,
    );
  });

  it("a large hostile catalog (9,000 endpoints of long URLs) is read in bounded time and memory", async () => {
    const url = `https://cloud.example/${"p".repeat(2000)}`;
    const catalog = Array.from({ length: 9 }, (_, i) => ({
      type: `svc${i}`,
      endpoints: Array.from({ length: 1000 }, () => ({ interface: "public", url })),
    }));
    const heapBefore = process.memoryUsage().heapUsed;
    await readOne({
      status: 201,
      headers: { "x-subject-token": "gAAAAABprop" },
      body: keystoneTokenBody("http://127.0.0.1:1", { catalog }),
    });
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(256 * 1024 * 1024);
  });
});

describe("the time and URL readers", () => {
  it("parseKeystoneTime reads what Keystone writes, to the millisecond", () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date("1971-01-01T00:00:00Z"),
          max: new Date("2999-12-31T00:00:00Z"),
          noInvalidDate: true,
        }),
        (d) => {
          expect(parseKeystoneTime(d.toISOString().replace("Z", "000Z"))).toBe(d.getTime());
        },
      ),
      RUNS,
    );
  });

  it("parseKeystoneTime and catalogUrlProblem never throw, and take 1 MB of anything in bounded time", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (s) => {
        const t = parseKeystoneTime(s);
        expect(t === undefined || Number.isFinite(t)).toBe(true);
        const problem = catalogUrlProblem(s);
        if (problem === undefined) expect(["http:", "https:"]).toContain(new URL(s).protocol);
      }),
      RUNS,
    );
    for (const big of [
      "9".repeat(1 << 20),
      `2026-01-01T00:00:00${".0".repeat(1 << 19)}Z`,
      `https://a/${"%".repeat(1 << 20)}`,
    ]) {
      const started = performance.now();
      expect(parseKeystoneTime(big)).toBeUndefined();
      expect(catalogUrlProblem(big)).toMatch(/longer than/);
      expect(performance.now() - started).toBeLessThan(200);
    }
  });
});
