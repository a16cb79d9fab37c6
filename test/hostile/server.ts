/**
 * A hostile endpoint on 127.0.0.1: it answers every request with whatever `answer` returns — huge or
 * malformed amounts, echoed secrets in any encoding, control characters, duplicate headers, catalog
 * URLs of other schemes — so each reader of wire data can be driven with what no real server was
 * seen to send. It speaks both protocols costgate talks: Keystone v3 (`/v3/auth/tokens`) and the
 * billing GraphQL endpoint (`/bill/graphql`); the builders below give well-formed answers to start
 * a case from ("happy path, change one field").
 */
import { createServer, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll } from "vitest";

/** A request as the hostile endpoint saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
  /** For GraphQL: `balance`, `consumption` or `other`, from the query text. */
  operation: "balance" | "consumption" | "token" | "other";
}

/** What to answer. `headers` may repeat a name with an array (two `X-Subject-Token` headers). */
export interface HostileAnswer {
  status?: number;
  headers?: OutgoingHttpHeaders;
  /** A string or bytes sent as is; any other value is sent as JSON. */
  body?: unknown;
}

/** A running hostile endpoint. */
export interface HostileServer {
  /** `http://127.0.0.1:PORT` (the billing base URL) */
  url: string;
  /** `http://127.0.0.1:PORT/v3` (the identity auth URL) */
  authUrl: string;
  /** Every request seen, in order. */
  requests: SeenRequest[];
  /** Replaces the answer function (between cases). */
  answer: (req: SeenRequest) => HostileAnswer | Promise<HostileAnswer>;
  close(): Promise<void>;
}

function operationOf(path: string, method: string, json: unknown): SeenRequest["operation"] {
  if (path.startsWith("/v3/auth/tokens") && method === "POST") return "token";
  const query = (json as { query?: unknown } | undefined)?.query;
  if (typeof query !== "string") return "other";
  if (query.includes("getSubscriptionBalance")) return "balance";
  if (query.includes("reportSubscriptionConsuming")) return "consumption";
  return "other";
}

/** startHostileServer listens on 127.0.0.1, port 0; `answer` defaults to {@link wellFormed}. */
export async function startHostileServer(
  answer: HostileServer["answer"] = wellFormed,
): Promise<HostileServer> {
  const state: HostileServer = {
    url: "",
    authUrl: "",
    requests: [],
    answer,
    close: async () => {},
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    const path = req.url ?? "/";
    const seen: SeenRequest = {
      method: req.method ?? "GET",
      path,
      headers: req.headers,
      body,
      json,
      operation: operationOf(path, req.method ?? "GET", json),
    };
    state.requests.push(seen);
    try {
      const a = await state.answer(seen);
      const payload =
        typeof a.body === "string" || Buffer.isBuffer(a.body)
          ? a.body
          : a.body === undefined
            ? ""
            : JSON.stringify(a.body);
      const headers: OutgoingHttpHeaders = {
        "content-type":
          typeof a.body === "string" || Buffer.isBuffer(a.body) ? "text/plain" : "application/json",
        ...a.headers,
      };
      res.writeHead(a.status ?? 200, headers);
      res.end(payload);
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(`hostile server: ${(err as Error).message}`);
    }
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.authUrl = `${state.url}/v3`;
  state.close = () =>
    new Promise<void>((ok) => {
      server.close(() => ok());
      server.closeAllConnections();
    });
  return state;
}

/** A balance answer in the endpoint's GraphQL shape. */
export function balanceAnswer(balance: unknown = "1312.40", bonuses: unknown = "0"): HostileAnswer {
  return { body: { data: { bill: { getSubscriptionBalance: { balance, bonuses } } } } };
}

/** One consumption item. */
export interface HostileItem {
  day: unknown;
  totalAmount: unknown;
  totalBonuses?: unknown;
}

/** A consumption answer in the endpoint's GraphQL shape. */
export function consumptionAnswer(items: HostileItem[]): HostileAnswer {
  return {
    body: {
      data: {
        bill: {
          reportSubscriptionConsuming: {
            items: items.map((i) => ({ totalBonuses: "0", ...i })),
          },
        },
      },
    },
  };
}

/** A GraphQL error answer (HTTP 200 unless `status`). */
export function graphqlErrorAnswer(message: string, status = 200): HostileAnswer {
  return { status, body: { errors: [{ message }], data: null } };
}

/** ISO day `n` days before today (UTC). */
export function daysAgo(n: number, now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - n))
    .toISOString()
    .slice(0, 10);
}

/** Well-formed consumption items for the `days` days before today: 100.00 a day. */
export function steadyItems(days: number, amount: unknown = "100.00"): HostileItem[] {
  return Array.from({ length: days }, (_, i) => ({ day: daysAgo(days - i), totalAmount: amount }));
}

/** The body of a Keystone v3 token answer (`POST /v3/auth/tokens` → 201), with `over` applied to `token`. */
export function keystoneTokenBody(baseUrl: string, over: Record<string, unknown> = {}): unknown {
  const now = Date.now();
  return {
    token: {
      methods: ["application_credential"],
      user: { id: "u1", name: "hostile", domain: { id: "default", name: "Default" } },
      project: { id: "p1", name: "hostile", domain: { id: "default", name: "Default" } },
      roles: [{ id: "r1", name: "member" }],
      audit_ids: ["aud-hostile-1"],
      issued_at: new Date(now).toISOString().replace("Z", "000Z"),
      expires_at: new Date(now + 3600_000).toISOString().replace("Z", "000Z"),
      catalog: [
        {
          type: "identity",
          name: "keystone",
          id: "svc1",
          endpoints: [
            {
              id: "e1",
              interface: "public",
              region: "RegionOne",
              region_id: "RegionOne",
              url: `${baseUrl}/v3`,
            },
          ],
        },
      ],
      ...over,
    },
  };
}

/** A Keystone token answer: 201 with `X-Subject-Token` (or the headers given). */
export function tokenAnswer(
  baseUrl: string,
  over: Record<string, unknown> = {},
  headers?: OutgoingHttpHeaders,
): HostileAnswer {
  return {
    status: 201,
    headers: headers ?? { "x-subject-token": "gAAAAABhostile-token-value-0123456789" },
    body: keystoneTokenBody(baseUrl, over),
  };
}

/**
 * wellFormed answers as a sane endpoint would: a token for `POST /v3/auth/tokens`, 204 for a revoke or
 * a validation, a balance of 1312.40 and 30 days of 100.00 for GraphQL.
 */
export function wellFormed(req: SeenRequest): HostileAnswer {
  if (req.operation === "token") return tokenAnswer(`http://${req.headers.host}`);
  if (req.path.startsWith("/v3/auth/tokens"))
    return req.method === "DELETE" ? { status: 204 } : tokenAnswer(`http://${req.headers.host}`, {}, {});
  if (req.operation === "balance") return balanceAnswer();
  if (req.operation === "consumption") return consumptionAnswer(steadyItems(30));
  return { status: 404, body: { error: { code: 404, title: "Not Found", message: "not here" } } };
}

/** HostileFixture is what {@link useHostileServer} gives a test file; read it inside tests, not at load. */
export interface HostileFixture {
  /** The file's hostile endpoint. */
  readonly server: HostileServer;
  /** billingEnv is the billing variables for the endpoint (the file's token, no retries), then `more`. */
  billingEnv(more?: Record<string, string>): Record<string, string>;
}

/**
 * useHostileServer registers a test file's hooks: a hostile endpoint started before its tests and closed
 * after them, answering {@link wellFormed} again with its requests forgotten after each test.
 *
 * @example
 * const hostile = useHostileServer("hostile-x-token-0123456789abcdef");
 * it("refuses", async () => { hostile.server.answer = () => ({ status: 500 }); ... });
 */
export function useHostileServer(token: string): HostileFixture {
  let server: HostileServer | undefined;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    if (!server) return;
    server.answer = wellFormed;
    server.requests.length = 0;
  });
  const fixture: HostileFixture = {
    get server() {
      if (!server) throw new Error("the hostile endpoint starts in beforeAll: read it inside a test");
      return server;
    },
    billingEnv: (more = {}) => ({
      COSTGATE_BILLING_URL: fixture.server.url,
      COSTGATE_BILLING_TOKEN: token,
      COSTGATE_RETRIES: "0",
      ...more,
    }),
  };
  return fixture;
}
