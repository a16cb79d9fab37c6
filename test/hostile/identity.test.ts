/**
 * Keystone answers costgate must refuse: every field it stores or uses (the X-Subject-Token, the
 * times, catalog URLs, ids, names, methods, roles, audit ids), each changed alone from a well-formed
 * answer. Refused as a ResponseError (exit 3) naming the field, never stored in Pulumi state and
 * never printed raw — through the library, the command line and Pulumi's dynamic-provider host.
 */

import type { OutgoingHttpHeaders } from "node:http";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isResponseError } from "../../provider/errors";
import { issueToken, validateToken } from "../../provider/identity/tokens";
import { runCli } from "../helpers/cli";
import {
  loadDist,
  type Props,
  type ProviderHost,
  registrations,
  useProviderHost,
} from "../helpers/provider-host";
import { type HostileServer, startHostileServer, tokenAnswer, wellFormed } from "./server";

const require = createRequire(import.meta.url);
const CRED = { id: "hostile-cred", secret: "hostile-secret-9f8e7d" };
const appCred = {
  type: "application_credential" as const,
  applicationCredentialId: CRED.id,
  applicationCredentialSecret: CRED.secret,
};
const hour = 3600_000;
const keystoneTime = (ms: number) => new Date(ms).toISOString().replace("Z", "000Z");

/** One refused answer: what to change, the field the error must name, a piece of the value it must not print. */
interface Case {
  name: string;
  over?: (base: string) => Record<string, unknown>;
  headers?: OutgoingHttpHeaders;
  field: RegExp;
  raw?: string;
}

const endpoint = (url: string) => ({ type: "identity", endpoints: [{ interface: "public", url }] });
const catalogWith = (url: string) => () => ({ catalog: [endpoint(url)] });

const CASES: Case[] = [
  {
    name: "two X-Subject-Token headers",
    headers: { "x-subject-token": ["tokA1", "second"] },
    field: /more than one X-Subject-Token/,
    raw: "second",
  },
  {
    name: "an X-Subject-Token with a comma",
    headers: { "x-subject-token": "tokA1, second" },
    field: /X-Subject-Token header is not a token/,
    raw: "second",
  },
  {
    name: "an X-Subject-Token with a tab",
    headers: { "x-subject-token": "tokA1\tsecond" },
    field: /X-Subject-Token header is not a token/,
    raw: "second",
  },
  {
    name: "an X-Subject-Token with Latin-1",
    headers: { "x-subject-token": "tok\u00e9second" },
    field: /X-Subject-Token header is not a token/,
    raw: "second",
  },
  {
    name: "an X-Subject-Token of 9000 characters",
    headers: { "x-subject-token": "A".repeat(9000) },
    field: /X-Subject-Token header is longer than 8192/,
    raw: "AAAAAAAAAAAAAAAAAAAA",
  },
  {
    name: "expires_at in the past",
    over: () => ({
      expires_at: keystoneTime(Date.now() - hour),
      issued_at: keystoneTime(Date.now() - 2 * hour),
    }),
    field: /token\.expires_at is in the past/,
  },
  {
    name: "expires_at malformed",
    over: () => ({ expires_at: "tomorrow-ish" }),
    field: /token\.expires_at is not an ISO 8601 time/,
    raw: "tomorrow-ish",
  },
  {
    name: "expires_at on a day that does not exist",
    over: () => ({ expires_at: "2027-02-30T10:00:00.000000Z" }),
    field: /token\.expires_at is not an ISO 8601/,
    raw: "2027-02-30",
  },
  {
    name: "expires_at without a zone",
    over: () => ({ expires_at: "2027-01-01T10:00:00" }),
    field: /token\.expires_at is not an ISO 8601/,
    raw: "2027-01-01",
  },
  {
    name: "expires_at a number",
    over: () => ({ expires_at: 1_900_000_000 }),
    field: /token\.expires_at must be a string/,
  },
  {
    name: "expires_at decades away",
    over: () => ({ expires_at: "2099-01-01T00:00:00.000000Z" }),
    field: /token\.expires_at is more than a year away/,
    raw: "2099",
  },
  {
    name: "issued_at after expires_at",
    over: () => ({ issued_at: keystoneTime(Date.now() + 2 * hour) }),
    field: /token\.issued_at is after expires_at/,
  },
  {
    name: "issued_at malformed",
    over: () => ({ issued_at: "yesterday\u0000" }),
    field: /token\.issued_at is not an ISO 8601/,
    raw: "yesterday",
  },
  {
    name: "a javascript: catalog URL",
    over: catalogWith("javascript:alert(1)"),
    field: /token\.catalog\.0\.endpoints\.0\.url is not an http\(s\) URL/,
    raw: "alert(1)",
  },
  {
    name: "a file: catalog URL",
    over: catalogWith("file:///etc/passwd"),
    field: /token\.catalog\.0\.endpoints\.0\.url is not an http\(s\) URL/,
    raw: "/etc/passwd",
  },
  {
    name: "a data: catalog URL",
    over: catalogWith("data:text/html,<b>hi</b>"),
    field: /url is not an http\(s\) URL/,
    raw: "<b>hi",
  },
  {
    name: "a catalog URL with credentials",
    over: catalogWith("https://admin:s3cr3tpw@cloud.example/v3"),
    field: /url carries credentials/,
    raw: "s3cr3tpw",
  },
  {
    name: "a catalog URL with a space",
    over: catalogWith("https://cloud.example/a b"),
    field: /url has spaces or control characters/,
    raw: "a b",
  },
  {
    name: "a catalog URL of 3000 characters",
    over: catalogWith(`https://cloud.example/${"x".repeat(3000)}`),
    field: /url is longer than 2048/,
    raw: "xxxxxxxxxxxxxxxxxxxx",
  },
  {
    name: "a catalog URL that is not a URL",
    over: catalogWith("not a url at all"),
    field: /url has spaces/,
    raw: "not a url",
  },
  {
    name: "a catalog of 10,010 endpoints (11 services of 910)",
    over: (b) => ({
      catalog: Array.from({ length: 11 }, (_, i) => ({
        type: `svc${i}`,
        endpoints: Array.from({ length: 910 }, () => ({ interface: "public", url: `${b}/v3` })),
      })),
    }),
    field: /token\.catalog has more than 10000 endpoints/,
  },
  {
    name: "a service of 1001 endpoints",
    over: (b) => ({
      catalog: [
        {
          type: "identity",
          endpoints: Array.from({ length: 1001 }, () => ({ interface: "public", url: b })),
        },
      ],
    }),
    field: /token\.catalog\.0\.endpoints has more than 1000 entries/,
  },
  {
    name: "a service type with a newline",
    over: () => ({ catalog: [{ type: "compute\nX-Evil: 1", endpoints: [] }] }),
    field: /token\.catalog\.0\.type must be/,
    raw: "X-Evil",
  },
  {
    name: "an endpoint interface of a sentence",
    over: () => ({
      catalog: [{ type: "identity", endpoints: [{ interface: "public url", url: "https://a.example" }] }],
    }),
    field: /interface must be 1 to 64 letters/,
    raw: "public url",
  },
  {
    name: "a user name with a control character",
    over: () => ({ user: { id: "u1", name: "evil\u001b[31mred" } }),
    field: /token\.user\.name has control characters/,
    raw: "[31mred",
  },
  {
    name: "a user name with a bidi override",
    over: () => ({ user: { id: "u1", name: "admin\u202egnp.exe" } }),
    field: /token\.user\.name has control characters/,
    raw: "gnp.exe",
  },
  { name: "an empty user id", over: () => ({ user: { id: "" } }), field: /token\.user\.id is empty/ },
  {
    name: "a user id of 300 characters",
    over: () => ({ user: { id: "u".repeat(300) } }),
    field: /token\.user\.id is longer than 255/,
    raw: "uuuuuuuuuuuuuuuuuuuu",
  },
  {
    name: "a project name that is an object",
    over: () => ({ project: { id: "p1", name: { $gt: "" } } }),
    field: /token\.project\.name must be a string/,
  },
  {
    name: "a method with a space",
    over: () => ({ methods: ["pass word"] }),
    field: /token\.methods\.0 must be/,
    raw: "pass word",
  },
  {
    name: "17 methods",
    over: () => ({ methods: Array.from({ length: 17 }, (_, i) => `m${i}`) }),
    field: /token\.methods has more than 16/,
  },
  {
    name: "an audit id with markup",
    over: () => ({ audit_ids: ["<script>x</script>"] }),
    field: /token\.audit_ids\.0 must be/,
    raw: "<script>",
  },
  {
    name: "1001 roles",
    over: () => ({ roles: Array.from({ length: 1001 }, (_, i) => ({ id: `r${i}` })) }),
    field: /token\.roles has more than 1000/,
  },
  {
    name: "a role name with a newline",
    over: () => ({ roles: [{ id: "r1", name: "member\nadmin" }] }),
    field: /token\.roles\.0\.name has control characters/,
    raw: "member\nadmin",
  },
  {
    name: "an application credential id that is a number",
    over: () => ({ application_credential: { id: 7 } }),
    field: /token\.application_credential\.id must be a string/,
  },
];

let srv: HostileServer;
beforeAll(async () => {
  srv = await startHostileServer();
});
afterAll(() => srv.close());

/** serve answers the token issue (POST) and validation (GET) with the case's answer, the rest as a sane endpoint. */
function serve(c: Case): void {
  srv.answer = (req) => {
    if (!req.path.startsWith("/v3/auth/tokens") || req.method === "DELETE") return wellFormed(req);
    const base = `http://${req.headers.host}`;
    const a = tokenAnswer(base, c.over?.(base) ?? {}, c.headers);
    return req.method === "GET" ? { ...a, status: 200 } : a;
  };
}

function expectRefused(e: unknown, c: Case): void {
  expect(isResponseError(e), String(e)).toBe(true);
  const message = (e as Error).message;
  expect(message).toMatch(c.field);
  expect(message).toMatch(/nothing was stored/);
  if (c.raw) expect(message).not.toContain(c.raw);
  expect(message).not.toContain(CRED.secret);
}

describe("the library refuses, naming the field", () => {
  it("takes the well-formed answer (the happy path every case starts from)", async () => {
    srv.answer = wellFormed;
    const t = await issueToken({ authUrl: srv.authUrl }, appCred);
    expect(t.id).toBe("gAAAAABhostile-token-value-0123456789");
    expect(Date.parse(t.expiresAt)).toBeGreaterThan(Date.now());
    expect(t.catalog[0]?.endpoints[0]?.url).toBe(`${srv.url}/v3`);
  });

  it.each(CASES.map((c) => [c.name, c] as const))("issueToken: %s", async (_, c) => {
    serve(c);
    expectRefused(await issueToken({ authUrl: srv.authUrl }, appCred).catch((e: unknown) => e), c);
  });

  it.each(CASES.filter((c) => !c.headers && !/in the past/.test(c.name)).map((c) => [c.name, c] as const))(
    "validateToken: %s",
    async (_, c) => {
      serve(c);
      const e = await validateToken({ authUrl: srv.authUrl }, "gAAAAAB-subject").catch((x: unknown) => x);
      expectRefused(e, c);
    },
  );

  it("validateToken takes a token that expired by this clock (Keystone's clock decides)", async () => {
    serve({
      name: "",
      field: /x/,
      over: () => ({
        expires_at: keystoneTime(Date.now() - 1000),
        issued_at: keystoneTime(Date.now() - hour),
      }),
    });
    const info = await validateToken({ authUrl: srv.authUrl }, "gAAAAAB-subject");
    expect(Date.parse(info?.expiresAt ?? "")).toBeLessThan(Date.now());
  });

  it("takes Keystone's other well-formed times: whole seconds, an offset, nanoseconds", async () => {
    const at = new Date(Date.now() + hour);
    const plain = at.toISOString().replace(/\.\d+Z$/, "Z");
    for (const expires_at of [
      plain,
      plain.replace("Z", "+00:00"),
      at.toISOString().replace("Z", "123456Z"),
    ]) {
      serve({ name: "", field: /x/, over: () => ({ expires_at }) });
      const t = await issueToken({ authUrl: srv.authUrl }, appCred);
      expect(Math.abs(Date.parse(t.expiresAt) - at.getTime())).toBeLessThan(1000);
    }
  });
});

describe("`costgate token` exits 3 and prints no token", () => {
  const env = () => ({
    OS_AUTH_URL: srv.authUrl,
    OS_APPLICATION_CREDENTIAL_ID: CRED.id,
    OS_APPLICATION_CREDENTIAL_SECRET: CRED.secret,
  });
  const chosen = [
    "two X-Subject-Token headers",
    "an X-Subject-Token with a comma",
    "expires_at in the past",
    "expires_at malformed",
    "a javascript: catalog URL",
    "a file: catalog URL",
    "a user name with a control character",
  ];
  it.each(chosen.flatMap((n) => [[n, false] as const, [n, true] as const]))(
    "%s (--json: %s)",
    async (name, json) => {
      const c = CASES.find((x) => x.name === name)!;
      serve(c);
      const r = await runCli(json ? ["token", "--json"] : ["token"], env());
      expect(r.code, r.stderr).toBe(3);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(c.field);
      if (c.raw) expect(r.stderr).not.toContain(c.raw);
      expect(r.stderr).not.toContain(CRED.secret);
    },
  );
});

describe("Pulumi's dynamic-provider host stores nothing of a refused answer", () => {
  let host: ProviderHost;
  useProviderHost((h) => {
    host = h;
  });
  const urn = (name: string) =>
    `urn:pulumi:test::costgate-test::pulumi-nodejs:dynamic/costgate:AppCredentialToken::${name}`;

  async function inputs(): Promise<Props> {
    const pulumi = require("@pulumi/pulumi");
    const { AppCredentialToken } = loadDist<typeof import("../../provider")>();
    const regs = await registrations(() => {
      new AppCredentialToken("hostile", {
        authUrl: srv.authUrl,
        applicationCredentialId: CRED.id,
        applicationCredentialSecret: pulumi.secret(CRED.secret),
      });
    });
    const checked = await host.check(urn("hostile"), {}, regs[0]!.inputs);
    expect(checked.failures).toEqual([]);
    return checked.inputs;
  }

  const chosen = [
    "expires_at in the past",
    "expires_at malformed",
    "two X-Subject-Token headers",
    "a javascript: catalog URL",
    "a role name with a newline",
  ];
  it.each(chosen)("Create fails on %s: no resource, no state", async (name) => {
    const c = CASES.find((x) => x.name === name)!;
    const props = await inputs();
    serve(c);
    const e = await host.create(urn("hostile"), props).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    const message = (e as Error).message;
    expect(message).toMatch(c.field);
    if (c.raw) expect(message).not.toContain(c.raw);
    // no ErrorResourceInitFailed (an id with properties the engine would record): nothing is stored
    const metadata = (e as { metadata?: { get(key: string): unknown[] } }).metadata;
    expect(metadata?.get("grpc-status-details-bin")).toEqual([]);
    expect(host.output()).not.toContain(CRED.secret);
  });

  it("Read (refresh) fails on a refused validation and keeps the stored state as it was", async () => {
    const props = await inputs();
    srv.answer = wellFormed;
    const { id, properties } = await host.create(urn("hostile"), props);
    expect(properties.expiresAt).toMatch(/^\d{4}-/);
    for (const name of ["expires_at malformed", "a file: catalog URL", "expires_at decades away"]) {
      const c = CASES.find((x) => x.name === name)!;
      serve(c);
      const e = await host.read(id, urn("hostile"), properties).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(Error);
      expect((e as Error).message).toMatch(c.field);
      if (c.raw) expect((e as Error).message).not.toContain(c.raw);
    }
  });
});
