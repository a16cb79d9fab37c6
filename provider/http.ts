/**
 * The one place that talks HTTP: TLS settings, timeouts, redaction, debug logging and the mapping
 * of transport failures to costgate's errors. Callers decide what a status means.
 * @internal
 */
import { readFileSync } from "node:fs";
import { Agent, request } from "undici";
import { ConfigError, NetworkError, type RequestInfo, type Service, TimeoutError } from "./errors";

/** Timeouts of one request, in milliseconds. */
export interface Timeouts {
  /** Establishing the TCP/TLS connection. Default 10 000. */
  connectMs?: number;
  /** Waiting for the response headers. Default 30 000. */
  headersMs?: number;
  /** Between two chunks of the body. Default 30 000. */
  bodyMs?: number;
  /** The whole request, start to last byte. Default 60 000. */
  totalMs?: number;
}

/** How to reach an endpoint: TLS settings and timeouts. */
export interface TransportOptions {
  /** Path to a PEM bundle of CA certificates to trust (like `OS_CACERT`). */
  caCert?: string;
  /** Skip TLS verification (like `--insecure`). Warns once per process. */
  insecure?: boolean;
  timeouts?: Timeouts;
}

export const DEFAULT_TIMEOUTS: Required<Timeouts> = {
  connectMs: 10_000,
  headersMs: 30_000,
  bodyMs: 30_000,
  totalMs: 60_000,
};

/** One request. `json` is sent as the body with `Content-Type: application/json`. */
export interface HttpRequest {
  service: Service;
  method: "GET" | "HEAD" | "POST" | "DELETE";
  url: string;
  headers?: Record<string, string>;
  json?: unknown;
  transport?: TransportOptions;
}

/** A response with its body read as text. Header names are lower case. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
  requestId?: string;
  info: RequestInfo;
}

/** Headers whose values are credentials: never logged, never part of an error. */
const SECRET_HEADERS = new Set([
  "x-auth-token",
  "x-subject-token",
  "x-user-token",
  "authorization",
  "cookie",
]);

const agents = new Map<string, Agent>();
let warnedInsecure = false;

function agentFor(transport: TransportOptions | undefined): Agent {
  const t = { ...DEFAULT_TIMEOUTS, ...transport?.timeouts };
  const key = JSON.stringify([transport?.caCert ?? "", transport?.insecure === true, t.connectMs]);
  let agent = agents.get(key);
  if (agent) return agent;
  let ca: string | undefined;
  if (transport?.caCert) {
    try {
      ca = readFileSync(transport.caCert, "utf8");
    } catch (cause) {
      throw new ConfigError(
        "cacert",
        `cannot read the CA bundle ${transport.caCert}; point OS_CACERT (or cacert in clouds.yaml) at a readable PEM file`,
        { cause },
      );
    }
  }
  if (transport?.insecure && !warnedInsecure) {
    warnedInsecure = true;
    process.emitWarning(
      "TLS certificate verification is disabled (insecure); use a CA bundle (OS_CACERT) instead",
      "CostgateInsecureWarning",
    );
  }
  agent = new Agent({
    connect: { timeout: t.connectMs, ca, rejectUnauthorized: transport?.insecure !== true },
    keepAliveTimeout: 4_000,
  });
  agents.set(key, agent);
  return agent;
}

/** redactUrl drops the query string and any user info, so a URL can go into a message. */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    u.username = "";
    u.password = "";
    u.search = "";
    u.hash = "";
    return u.toString();
  } catch {
    return "<invalid url>";
  }
}

/** debugEnabled tells whether `COSTGATE_DEBUG` asks for request logging on stderr. */
export function debugEnabled(): boolean {
  const v = process.env["COSTGATE_DEBUG"];
  return v !== undefined && v !== "" && v !== "0" && v !== "false";
}

function debugLog(line: string): void {
  if (debugEnabled()) process.stderr.write(`costgate: ${line}\n`);
}

function describeHeaders(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${SECRET_HEADERS.has(k.toLowerCase()) ? "<redacted>" : v}`)
    .join(", ");
}

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

function errorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === "object"; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string") return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function transportError(e: unknown, info: RequestInfo, totalMs: number): NetworkError {
  const code = errorCode(e);
  const what = `${info.method} ${info.url}`;
  if ((e as { name?: string })?.name === "TimeoutError" || (e as { name?: string })?.name === "AbortError") {
    return new TimeoutError(`${info.service} request timed out after ${totalMs} ms: ${what}`, {
      request: info,
    });
  }
  if (code && TIMEOUT_CODES.has(code)) {
    const phase =
      code === "UND_ERR_CONNECT_TIMEOUT"
        ? "connecting"
        : code === "UND_ERR_HEADERS_TIMEOUT"
          ? "waiting for headers"
          : "reading the body";
    return new TimeoutError(`${info.service} request timed out while ${phase}: ${what}`, {
      request: info,
      cause: e,
    });
  }
  const reason = code ?? (e instanceof Error ? e.message : String(e));
  return new NetworkError(`cannot reach the ${info.service} endpoint (${reason}): ${what}`, {
    request: info,
    cause: e,
  });
}

/**
 * send performs one request and reads the whole body. It throws NetworkError or TimeoutError
 * when no complete response arrives; any status is returned to the caller.
 */
export async function send(req: HttpRequest): Promise<HttpResponse> {
  const info: RequestInfo = { service: req.service, method: req.method, url: redactUrl(req.url) };
  const t = { ...DEFAULT_TIMEOUTS, ...req.transport?.timeouts };
  const headers: Record<string, string> = { accept: "application/json", ...req.headers };
  let body: string | undefined;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers["content-type"] = "application/json";
  }
  const dispatcher = agentFor(req.transport);
  const started = performance.now();
  debugLog(`-> ${info.method} ${info.url} [${describeHeaders(headers)}]`);
  try {
    const res = await request(req.url, {
      method: req.method,
      headers,
      body,
      dispatcher,
      headersTimeout: t.headersMs,
      bodyTimeout: t.bodyMs,
      signal: AbortSignal.timeout(t.totalMs),
    });
    const text = req.method === "HEAD" ? "" : await res.body.text();
    if (req.method === "HEAD") await res.body.dump();
    const flat: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(res.headers))
      flat[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
    const requestId = flat["x-openstack-request-id"] ?? flat["x-request-id"];
    debugLog(
      `<- ${res.statusCode} ${info.method} ${info.url} in ${Math.round(performance.now() - started)} ms${requestId ? ` (${requestId})` : ""}`,
    );
    return { status: res.statusCode, headers: flat, text, requestId, info };
  } catch (e) {
    const err = transportError(e, info, t.totalMs);
    debugLog(`!! ${err.message}`);
    throw err;
  }
}

/** parseJson parses a body, returning undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** describeBody names what a non-JSON body looks like, without quoting it (it might echo a secret). */
export function describeBody(res: HttpResponse): string {
  const type = res.headers["content-type"] ?? "no content type";
  if (res.text.length === 0) return "an empty body";
  if (/^\s*</.test(res.text) || type.includes("html")) return `an HTML page (${type})`;
  return `a non-JSON body (${type}, ${res.text.length} bytes)`;
}
