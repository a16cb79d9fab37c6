/**
 * A forward proxy that echoes what it was sent: it answers 407, 403 or 502 with a page or JSON echoing
 * the Proxy-Authorization header (base64 of `user:password`, the proxy's credentials) and the whole
 * request — for an http:// endpoint forwarded in absolute form (the proxy sees the X-User-Token and
 * Keystone's body with the password), and for an https:// endpoint, whose CONNECT it answers with the
 * same echo. `costgate balance`, `costgate token` and the library go through it with HTTP_PROXY /
 * HTTPS_PROXY = `http://user:<canary>@127.0.0.1:PORT`. Nothing printed or thrown may hold a canary in
 * any form; the message names the proxy without credentials, the status, and what to check.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";
import { loadDist } from "../helpers/provider-host";
import { CanaryScan, errorTexts, hardCanary, printTally } from "../secrets/canary";
import { type EchoShape, ENCODINGS, echoBody } from "./echo";

type Dist = typeof import("../../provider");
const scan = new CanaryScan();

/** One answer of the echoing proxy: the status, the shape and the encoding of the echo. */
interface ProxyCase {
  status: number;
  shape: EchoShape;
  encode: (e: string) => string;
}

/** An echoing proxy on 127.0.0.1, port 0: every request and every CONNECT is answered with `now`. */
interface EchoProxy {
  bare: string;
  /** The proxy URL with `user:<password canary>`, percent-encoded as a URL needs. */
  withCredentials: string;
  now: ProxyCase;
  seen: { method: string; auth: boolean; userToken: boolean }[];
  close(): Promise<void>;
}

function echoOf(req: IncomingMessage, body: string): string {
  const auth = req.headers["proxy-authorization"] ?? "";
  const pair = Buffer.from(String(auth).replace(/^Basic /, ""), "base64").toString("utf8");
  return `${req.method} ${req.url} with ${auth} (that is ${pair}), headers ${JSON.stringify(req.headers)}, body ${body}`;
}

async function startEchoProxy(password: string): Promise<EchoProxy> {
  const sockets = new Set<Socket>();
  const state = { now: { status: 407, shape: "html", encode: (e: string) => e } as ProxyCase };
  const seen: EchoProxy["seen"] = [];
  const answer = (status: number) =>
    status === 407 ? { "proxy-authenticate": 'Basic realm="echo"' } : ({} as Record<string, string>);
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    seen.push({
      method: req.method ?? "",
      auth: req.headers["proxy-authorization"] !== undefined,
      userToken: req.headers["x-user-token"] !== undefined,
    });
    const { status, shape, encode } = state.now;
    const { type, body } = echoBody(shape, status, encode(echoOf(req, Buffer.concat(chunks).toString())));
    res.writeHead(status, { "content-type": type, ...answer(status) }).end(body);
  });
  server.on("connect", (req: IncomingMessage, client: Socket) => {
    seen.push({
      method: "CONNECT",
      auth: req.headers["proxy-authorization"] !== undefined,
      userToken: false,
    });
    client.on("error", () => undefined);
    const { status, shape, encode } = state.now;
    const { type, body } = echoBody(shape, status, encode(echoOf(req, "")));
    const extra = Object.entries(answer(status))
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    const bytes = Buffer.from(body);
    client.end(
      `HTTP/1.1 ${status} Echo\r\n${extra}Content-Type: ${type}\r\nContent-Length: ${bytes.length}\r\n\r\n${body}`,
    );
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    bare: `http://127.0.0.1:${port}`,
    withCredentials: `http://proxyuser:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    get now() {
      return state.now;
    },
    set now(c: ProxyCase) {
      state.now = c;
    },
    seen,
    close: () =>
      new Promise<void>((ok) => {
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}

let proxy: EchoProxy;
let proxyPassword: string;
let billingToken: string;
let secret: string;
let password: string;

beforeAll(async () => {
  proxyPassword = scan.add("proxyPassword", hardCanary("proxypw"));
  billingToken = scan.add("billingToken", hardCanary("billing", true));
  secret = scan.add("appCredSecret", hardCanary("appcred"));
  password = scan.add("password", hardCanary("pässwörd"));
  proxy = await startEchoProxy(proxyPassword);
});
afterAll(async () => {
  await proxy?.close();
  printTally("test/hostile/secrets-proxy.test.ts", scan);
});

/** The cases: each status, in each shape, in a spread of encodings (all encodings for 407). */
function cases(): ProxyCase[] {
  const out: ProxyCase[] = [];
  const names = Object.keys(ENCODINGS);
  names.forEach((name, i) => {
    const encode = ENCODINGS[name] as (e: string) => string;
    out.push({ status: 407, shape: i % 2 ? "gateway" : "html", encode });
    out.push({
      status: [403, 502][i % 2] as number,
      shape: (["html", "gateway", "keystone"] as const)[i % 3] as EchoShape,
      encode,
    });
  });
  return out;
}

/** What a message must say: the proxy without credentials, where it came from, the status, what to check. */
function expectActionable(text: string, from: string, status: number): void {
  expect(text).toContain(proxy.bare);
  expect(text).not.toContain("proxyuser");
  expect(text).toMatch(new RegExp(`\\b${status}\\b`));
  expect(text).toContain(from);
  if (status === 407) expect(text).toMatch(new RegExp(`check the user and password in ${from}`));
}

const endpoints = {
  http: { billing: "http://127.0.0.1:9", identity: "http://127.0.0.1:9/v3", variable: "HTTP_PROXY" },
  https: { billing: "https://127.0.0.1:9", identity: "https://127.0.0.1:9/v3", variable: "HTTPS_PROXY" },
} as const;

describe("the costgate command through a proxy that echoes", () => {
  for (const scheme of ["http", "https"] as const) {
    it(`costgate balance and token to an ${scheme}:// endpoint: no canary, the proxy named without credentials`, async () => {
      const ep = endpoints[scheme];
      for (const c of cases()) {
        proxy.now = c;
        const env = { COSTGATE_DEBUG: "1", COSTGATE_RETRIES: "0", [ep.variable]: proxy.withCredentials };
        const runs = await Promise.all([
          runCli(["balance", "--project-id", "4242"], {
            ...env,
            COSTGATE_BILLING_URL: ep.billing,
            COSTGATE_BILLING_TOKEN: billingToken,
          }),
          runCli(["token"], {
            ...env,
            OS_AUTH_URL: ep.identity,
            OS_APPLICATION_CREDENTIAL_ID: "cred-1",
            OS_APPLICATION_CREDENTIAL_SECRET: secret,
          }),
          runCli(["token"], {
            ...env,
            OS_AUTH_URL: ep.identity,
            OS_USERNAME: "ops",
            OS_USER_DOMAIN_NAME: "Default",
            OS_PASSWORD: password,
            OS_PROJECT_ID: "p1",
          }),
        ]);
        for (const r of runs) {
          expect(r.code, r.stderr).toBe(3);
          scan.expectClean(`CLI stderr through a proxy (${scheme}, ${c.status})`, r.stderr);
          scan.expectClean(`CLI stdout through a proxy (${scheme}, ${c.status})`, r.stdout);
          const last = r.stderr
            .split("\n")
            .filter((l) => l.startsWith("costgate: error:"))
            .join("\n");
          expectActionable(last, ep.variable, c.status);
        }
      }
      // the echo was of the real thing: the proxy got the credentials (and, in absolute form, the token)
      expect(proxy.seen.some((s) => s.auth)).toBe(true);
      if (scheme === "http") expect(proxy.seen.some((s) => s.userToken)).toBe(true);
      else expect(proxy.seen.every((s) => s.method === "CONNECT" || s.method === "POST")).toBe(true);
    }, 180_000);
  }
});

describe("the library through a proxy that echoes", () => {
  it("getProjectBalance and issueToken throw errors with no canary, naming the proxy", async () => {
    const d = loadDist<Dist>();
    const saved = { http: process.env.HTTP_PROXY, https: process.env.HTTPS_PROXY };
    process.env.HTTP_PROXY = proxy.withCredentials;
    process.env.HTTPS_PROXY = proxy.withCredentials;
    try {
      for (const scheme of ["http", "https"] as const) {
        const ep = endpoints[scheme];
        for (const c of cases()) {
          proxy.now = c;
          const errors = [
            await d
              .getProjectBalance({ projectId: 4242, billingUrl: ep.billing, billingToken })
              .catch((x: unknown) => x),
            await d
              .issueToken(
                { authUrl: ep.identity, transport: { retry: false } },
                { type: "password", userName: "ops", userDomainName: "Default", password, projectId: "p1" },
              )
              .catch((x: unknown) => x),
          ];
          for (const e of errors) {
            expect(e).toBeInstanceOf(Error);
            scan.expectClean(`library errors through a proxy (${scheme}, ${c.status})`, errorTexts(e));
            expectActionable((e as Error).message, ep.variable, c.status);
          }
          if (scheme === "https" || c.status === 407) {
            // undici's own words for a refused CONNECT (or a 407 in absolute form) carry nothing of the body
            const cause = String(((errors[0] as Error).cause as Error | undefined)?.message);
            expect(cause).toMatch(
              /^Proxy response \(\d{3}\) !== 200 when HTTP Tunneling$|^Proxy Authentication Required \(407\)$/,
            );
            expect((errors[0] as Error).message).toMatch(
              scheme === "https"
                ? /refused the billing request with HTTP \d{3}: POST https:.* — the proxy refused the CONNECT with \d{3}: check/
                : /refused the billing request/,
            );
          }
        }
      }
    } finally {
      for (const [k, v] of [
        ["HTTP_PROXY", saved.http],
        ["HTTPS_PROXY", saved.https],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }, 120_000);
});
