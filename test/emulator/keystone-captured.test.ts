/**
 * Replays the real Keystone exchanges of test/keystone/captured against the emulator, with the
 * captured ids, names and secrets swapped for the seed's, and compares statuses, Keystone's
 * headers, error bodies and token body shapes. Skipped when nothing was captured.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator";

const DIR = resolve(__dirname, "../keystone/captured");
const SKIP = new Set(["post-application-credentials.json", "delete-application-credential.json"]);
const HEADERS_OF_TRANSPORT = new Set(["date", "server", "content-length"]);

interface Capture {
  request: {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: unknown;
    rawBody?: string;
  };
  response: { status: number; headers: [string, string][]; body: unknown };
}
const load = (f: string): Capture => JSON.parse(readFileSync(resolve(DIR, f), "utf8"));
const INDEX = resolve(DIR, "index.json");
const files: string[] = existsSync(INDEX)
  ? (JSON.parse(readFileSync(INDEX, "utf8")).files as { file: string }[])
      .map((f) => f.file)
      .filter((f) => !SKIP.has(f))
  : [];

/** shape keeps keys (in order) and value types; arrays by their first element. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length > 0 ? [shape(v[0])] : [];
  if (v && typeof v === "object") return Object.entries(v).map(([k, x]) => [k, shape(x)]);
  return v === null ? null : typeof v;
}

let emu: Emulator;
const swap = new Map<string, string>();
const rewrite = (s: string) => [...swap].reduce((acc, [from, to]) => acc.split(from).join(to), s);

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  if (files.length === 0) return;
  // biome-ignore lint/suspicious/noExplicitAny: a captured token body
  const t = (load("post-auth-tokens-app-cred.json").response.body as { token: Record<string, any> }).token;
  const s = emu.seed;
  const base = load("get-root.json")
    .response.headers.find(([k]) => k === "Location")![1]
    .replace(/\/v3\/$/, "");
  const pairs: [string, string][] = [
    [base, emu.url],
    [t.user.domain.id, s.domains.customers.id],
    [t.user.domain.name, s.domains.customers.name],
    [t.user.id, s.users.unicode.id],
    [t.user.name, s.users.unicode.name],
    [t.project.id, s.projects.demo.id],
    [t.project.name, s.projects.demo.name],
    [t.application_credential.id, s.applicationCredentials.unicode.id],
    [t.application_credential.name, s.applicationCredentials.unicode.name],
    ["<USER_PASSWORD>", s.users.unicode.password],
    ["<APP_CRED_SECRET>", s.applicationCredentials.unicode.secret],
  ];
  for (const [from, to] of pairs) swap.set(from, to);
});
afterAll(() => emu.close());

describe.skipIf(files.length === 0)("emulator against captured Keystone exchanges", () => {
  it("answers every captured request with Keystone's status, headers and bodies", async () => {
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const c = load(file);
      const headers = JSON.parse(rewrite(JSON.stringify(c.request.headers)));
      const body =
        c.request.rawBody ??
        (c.request.body === undefined ? undefined : rewrite(JSON.stringify(c.request.body)));
      const res = await fetch(`${emu.url}${c.request.path}`, { method: c.request.method, headers, body });
      const text = await res.text();
      expect(res.status, file).toBe(c.response.status);
      const names = [...res.headers.keys()];
      for (const [name, value] of c.response.headers) {
        const key = name.toLowerCase();
        if (HEADERS_OF_TRANSPORT.has(key)) continue;
        expect(names, `${file}: ${name}`).toContain(key);
        if (/^<TOKEN_\d+>$/.test(value) && !swap.has(value)) swap.set(value, res.headers.get(key)!);
        if (key === "www-authenticate" || key === "location")
          expect(res.headers.get(key)).toBe(rewrite(value));
      }
      const want = JSON.parse(rewrite(JSON.stringify(c.response.body ?? null)));
      const got = text === "" ? null : JSON.parse(text);
      if (want?.error) {
        const first = (m: string) => m.split("\n\n")[0];
        expect({ ...got.error, message: first(got.error.message) }, file).toEqual({
          ...want.error,
          message: first(want.error.message),
        });
      } else if (want?.token) {
        const { catalog: _a, roles: _b, ...wantRest } = want.token;
        const { catalog: _c, roles: _d, ...gotRest } = got.token;
        expect(shape(gotRest), file).toEqual(shape(wantRest));
        expect(Object.keys(got.token), file).toEqual(Object.keys(want.token));
        if (want.token.catalog)
          expect(shape(got.token.catalog[0]), file).toEqual(shape(want.token.catalog[0]));
      } else {
        expect(got, file).toEqual(want);
      }
    }
  });
});
