/**
 * The dynamic provider through Pulumi's own dynamic-provider host (as `pulumi up`, `refresh` and
 * `destroy` drive it), against a Keystone that echoes what it was sent: POST /v3/auth/tokens answered
 * 401, 403 or 500 with the request body (the application credential secret, the password) and its
 * headers, and GET (Read) and DELETE (Delete) answered 403 or 500 with the X-Auth-Token and
 * X-Subject-Token (the issued token) — in every encoding of ./echo.ts, in Keystone's error body and as
 * an HTML page. The canaries hold `"`, `\`, `+`, `/`, `=`, spaces and non-ASCII letters. Neither the
 * gRPC error the engine prints (message, details, metadata) nor anything the host process wrote may
 * hold one in any form, and the error still names the status and what to check.
 */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scrubValue } from "../../provider/text";
import { loadDist, type ProviderHost, startProviderHost } from "../helpers/provider-host";
import { CanaryScan, errorTexts, hardCanary, printTally } from "../secrets/canary";
import { urnOf } from "../secrets/host-flow";
import { engineStore, type Registered, register } from "../secrets/register";
import { type EchoShape, ENCODINGS, echoBody } from "./echo";
import {
  type HostileAnswer,
  type HostileServer,
  keystoneTokenBody,
  type SeenRequest,
  startHostileServer,
  tokenAnswer,
} from "./server";

const require = createRequire(import.meta.url);
type Dist = typeof import("../../provider");

const scan = new CanaryScan();
let host: ProviderHost;
let server: HostileServer;
let appCred: Registered;
let passwordReg: Registered;

/** The credential a request carries: the subject or auth token, or the secret or password of the body. */
function credentialOf(req: SeenRequest): string {
  const token = req.headers["x-subject-token"] ?? req.headers["x-auth-token"];
  if (typeof token === "string") return token;
  const id = (req.json as { auth?: { identity?: Record<string, unknown> } } | undefined)?.auth?.identity;
  const pw = (id?.["password"] as { user?: { password?: string } } | undefined)?.user?.password;
  const secret = (id?.["application_credential"] as { secret?: string } | undefined)?.secret;
  return pw ?? secret ?? "";
}

/** echoing answers `status` with the credential, the headers and the body, encoded, in `shape`. */
function echoing(shape: EchoShape, encode: (e: string) => string, status: number) {
  return (req: SeenRequest): HostileAnswer => {
    const echo = `you sent ${credentialOf(req)} with ${JSON.stringify(req.headers)} and ${req.body}`;
    const { type, body } = echoBody(shape, status, encode(echo));
    return { status, headers: { "content-type": type }, body };
  };
}

/** hostFailure runs a host call that must fail and returns the gRPC error, scanned. */
async function hostFailure(surface: string, call: () => Promise<unknown>): Promise<Error> {
  const e = await call().then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e, `${surface}: the host call should fail`).toBeInstanceOf(Error);
  scan.expectClean(`host gRPC errors (${surface})`, errorTexts(e));
  const details = (e as { details?: unknown }).details;
  expect(typeof details).toBe("string");
  return e as Error;
}

beforeAll(async () => {
  const secret = scan.add("appCredSecret", hardCanary("appcred"));
  const password = scan.add("password", hardCanary("pässwörd"));
  // a header value: a token as Keystone's are made (token68: costgate refuses anything else), with the
  // characters encodings change (+ / =)
  scan.add("token", `canary-token-${randomUUID()}+/_~.${randomUUID()}==`);
  server = await startHostileServer();
  host = await startProviderHost({ COSTGATE_DEBUG: "1", COSTGATE_RETRIES: "0" });
  await host.configure({});
  const pulumi = require("@pulumi/pulumi");
  const { AppCredentialToken, PasswordToken } = loadDist<Dist>();
  const [a, p] = await register(() => {
    new AppCredentialToken("ci", {
      authUrl: server.authUrl,
      applicationCredentialId: "cred-1",
      applicationCredentialSecret: pulumi.secret(secret),
    });
    new PasswordToken("ops", {
      authUrl: server.authUrl,
      username: "ops",
      userDomainName: "Default",
      password: pulumi.secret(password),
      projectId: "p1",
    });
  }, 2);
  appCred = a as Registered;
  passwordReg = p as Registered;
}, 60_000);

afterAll(async () => {
  const out = host?.output() ?? "";
  await host?.close();
  await server?.close();
  expect(out, "the debug log should be on").toMatch(/costgate: -> POST/);
  scan.expectClean("host process stdout/stderr (COSTGATE_DEBUG=1)", out);
  printTally("test/hostile/secrets-provider.test.ts", scan);
});

const SHAPES: EchoShape[] = ["keystone", "html"];

describe("the token resources through the dynamic-provider host, against a Keystone that echoes", () => {
  it("Create: 401, 403 and 500 echoing the secret or the password, in every form, say the status and what to check", async () => {
    let cases = 0;
    for (const [name, encode] of Object.entries(ENCODINGS)) {
      for (const shape of SHAPES) {
        for (const status of [401, 403, 500]) {
          server.answer = echoing(shape, encode, status);
          for (const [r, what] of [
            [appCred, /check the application credential id and secret/],
            [passwordReg, /check the user name, user domain, password and project scope/],
          ] as const) {
            const urn = urnOf(r.type.split(":").pop() ?? "", r.name);
            const checked = await host.check(urn, {}, r.inputs);
            expect(checked.failures).toEqual([]);
            const e = await hostFailure(`Create, ${name}, ${shape}, ${status}`, () =>
              host.create(urn, checked.inputs),
            );
            expect(e.message).toMatch(
              new RegExp(`Keystone answered ${status} to POST http://127\\.0\\.0\\.1:\\d+/v3/auth/tokens`),
            );
            expect(e.message).toMatch(status === 500 ? /try again later/ : what);
            cases++;
          }
        }
      }
    }
    expect(cases).toBe(Object.keys(ENCODINGS).length * SHAPES.length * 3 * 2);
  }, 120_000);

  it("Read (refresh) and Delete: 403 and 500 echoing the issued token, in every form, say the status", async () => {
    const token = scan.get("token");
    server.answer = (req) => tokenAnswer(`http://${req.headers.host}`, {}, { "x-subject-token": token });
    const urn = urnOf("AppCredentialToken", "ci");
    const { id, properties } = await host.create(urn, appCred.inputs);
    expect(properties.token).toBe(token);
    for (const [name, encode] of Object.entries(ENCODINGS)) {
      for (const shape of SHAPES) {
        for (const status of [403, 500]) {
          const echo = echoing(shape, encode, status);
          server.answer = (req) =>
            req.operation === "token" ? tokenAnswer(`http://${req.headers.host}`) : echo(req);
          const read = await hostFailure(`Read, ${name}, ${shape}, ${status}`, () =>
            host.read(id, urn, properties),
          );
          expect(read.message).toMatch(
            new RegExp(`Keystone answered ${status} to GET http://127\\.0\\.0\\.1:\\d+/v3/auth/tokens`),
          );
          const del = await hostFailure(`Delete, ${name}, ${shape}, ${status}`, () =>
            host.delete(id, urn, properties),
          );
          expect(del.message).toMatch(
            new RegExp(`Keystone answered ${status} to DELETE http://127\\.0\\.0\\.1:\\d+/v3/auth/tokens`),
          );
          if (status === 500) expect(del.message).toMatch(/try again later/);
        }
      }
    }
    // the GETs and DELETEs did carry the token: the echo was of the real thing
    const sent = server.requests.filter((r) => r.method === "DELETE");
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.headers["x-subject-token"] === token)).toBe(true);
  }, 120_000);

  it("Create and Read: a token body that echoes the credential into names, roles, the audit id or the catalog stores none of it in plaintext", async () => {
    const token = scan.get("token");
    let accepted = 0;
    let refused = 0;
    for (const [name, encode] of Object.entries(ENCODINGS)) {
      // what Keystone puts in the fields a resource stores in plaintext, echoing the request
      const echoed = (req: SeenRequest) => {
        // names take free text up to 255 characters; ids, audit ids and URLs have forms of their own
        // (test/hostile/identity.test.ts refuses an echo there)
        const e = encode(`you sent ${credentialOf(req)} and ${req.body}`).slice(0, 250);
        const base = `http://${req.headers.host}`;
        return keystoneTokenBody(base, {
          user: { id: `u-${e}`, name: e, domain: { id: e, name: e } },
          project: { id: `p-${e}`, name: e, domain: { id: e, name: e } },
          roles: [{ id: "r1", name: e }],
          audit_ids: ["aud-echo-1"],
          catalog: [
            {
              type: "identity",
              name: e,
              endpoints: [{ interface: "public", region: e, url: `${base}/v3` }],
            },
          ],
        });
      };
      server.answer = (req) =>
        req.method === "DELETE"
          ? { status: 204 }
          : {
              status: req.method === "POST" ? 201 : 200,
              headers: { "x-subject-token": token },
              body: echoed(req),
            };
      for (const r of [appCred, passwordReg]) {
        const urn = urnOf(r.type.split(":").pop() ?? "", r.name);
        // an echo that breaks a field's form (an audit id with spaces, a URL with a query of controls) is
        // refused as a whole, and then nothing is stored: the refusal must be as clean as the outputs
        let created: Awaited<ReturnType<ProviderHost["create"]>>;
        try {
          created = await host.create(urn, r.inputs);
        } catch (err) {
          scan.expectClean(`refused Create (${name})`, errorTexts(err));
          expect(String((err as Error).message), name).toMatch(/refused|not as expected/);
          refused++;
          continue;
        }
        accepted++;
        const { id, properties } = created;
        expect(properties.token, name).toBe(token);
        const { properties: read } = await host.read(id, urn, properties);
        expect(read.token, name).toBe(token);
        for (const [op, outs] of [
          ["Create", properties],
          ["Read", read],
        ] as const) {
          scan.expectClean(
            `plaintext outputs of ${op} (${name})`,
            JSON.stringify(engineStore(outs, r).plain),
          );
          scan.expectClean(`resource id of ${op} (${name})`, id);
        }
        expect(properties.userName, "a field without a credential is kept").not.toBe("");
        await host.delete(id, urn, read);
      }
    }
    // the scrubbing path ran: most echoes fit a name's form and were stored scrubbed
    expect(accepted).toBeGreaterThan(refused);
  }, 120_000);

  it("scrubValue keeps the shape and every string without a credential; short fragments do not shred a URL", () => {
    const pw = scan.get("password");
    const body = {
      user: { name: `echo ${Buffer.from(pw).toString("base64")}`, id: "u1" },
      catalog: [{ url: "https://identity.example.com/v3", region: "RegionOne" }],
    };
    expect(scrubValue(body, [pw])).toEqual({
      user: { name: "echo <redacted>", id: "u1" },
      catalog: [{ url: "https://identity.example.com/v3", region: "RegionOne" }],
    });
    // a 7-character password shares "example" with the URL: whole, it is cut; a 6-letter part is not
    expect(scrubValue(body.catalog, ["exampl3"])).toEqual(body.catalog);
    expect(scrubValue({ a: "x".repeat(100_000) }, [pw]).a).toHaveLength(100_000);
  });
});
