/**
 * The one place that talks HTTP: TLS settings, timeouts, retries, redaction, debug logging and the
 * mapping of transport failures to costgate's errors. Callers decide what a status means.
 *
 * Built on `node:http` / `node:https` with keep-alive agents: they are part of Node itself, so a
 * short-lived `costgate token` process pays nothing to load them (undici cost ~0.35 s per process:
 * its require and the compilation of its WASM parser; see docs/BENCHMARKS.md).
 * @internal
 */
import { readFileSync } from "node:fs";
import type * as http from "node:http";
import type * as Https from "node:https";
import type { Socket } from "node:net";
import { urlToHttpOptions } from "node:url";
import {
  ConfigError,
  NetworkError,
  type RequestInfo,
  ResponseError,
  type Service,
  TimeoutError,
} from "./errors";

/** Timeouts of one request (one attempt), in milliseconds. */
export interface Timeouts {
  /** Establishing the TCP/TLS connection. Default 10 000. */
  connectMs?: number;
  /** Waiting for the response headers once connected. Default 30 000 (or `COSTGATE_TIMEOUT_MS`). */
  headersMs?: number;
  /** Between two chunks of the body. Default 30 000 (or `COSTGATE_TIMEOUT_MS`). */
  bodyMs?: number;
  /** One attempt, start to last byte. Default 60 000 (or `COSTGATE_TIMEOUT_MS`). */
  totalMs?: number;
}

/**
 * RetryOptions say how often and how long a request is tried again. Which failures are retried
 * depends on the request: see {@link HttpRequest.idempotent}.
 *
 * Attempt n+1 waits a random time in [0, min(maxDelayMs, baseMs · 2^(n-1))] ("full jitter"), or
 * what the server's `Retry-After` asks for on a 429/503 (seconds or an HTTP date). No wait goes
 * past `totalMs`: a `Retry-After` longer than the time left is not waited for, and the response is
 * returned as it is (its `retryAfterMs` says what the server asked for).
 *
 * @example
 * const transport = { retry: { tries: 5, baseMs: 100, maxDelayMs: 2_000, totalMs: 10_000 } };
 */
export interface RetryOptions {
  /** Attempts in all, the first included; 1 turns retries off. Default 3 (`COSTGATE_RETRIES` + 1). */
  tries?: number;
  /** Base of the exponential backoff. Default 200. */
  baseMs?: number;
  /** Longest wait between two attempts. Default 5 000. */
  maxDelayMs?: number;
  /**
   * Time budget of all attempts and waits: no retry starts past it and a retry is cut off at it
   * (the first attempt keeps its own timeouts). Default 20 000.
   */
  totalMs?: number;
  /** Waits between attempts; inject one in tests. Default a real timer. */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1) for the jitter; inject one in tests. Default Math.random. */
  random?: () => number;
  /** The clock of the budget and of `Retry-After` dates, in ms since the epoch. Default Date.now. */
  now?: () => number;
}

/** How to reach an endpoint: TLS settings, timeouts and retries. */
export interface TransportOptions {
  /** Path to a PEM bundle of CA certificates to trust (like `OS_CACERT`). */
  caCert?: string;
  /** Skip TLS verification (like `--insecure`). Warns once per process. */
  insecure?: boolean;
  timeouts?: Timeouts;
  /** Retries of failed attempts; `false` is `{ tries: 1 }`. */
  retry?: RetryOptions | false;
  /**
   * The largest response body read, in bytes: a longer one ends the request with a ResponseError
   * (not retried) instead of filling memory. Default 16 MiB; token and billing bodies are far smaller.
   */
  maxResponseBytes?: number;
}

/** The largest response body read when the caller does not say. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** The timeouts used when neither the caller nor `COSTGATE_TIMEOUT_MS` gives one. */
export const DEFAULT_TIMEOUTS: Required<Timeouts> = {
  connectMs: 10_000,
  headersMs: 30_000,
  bodyMs: 30_000,
  totalMs: 60_000,
};

/** The retry settings used when neither the caller nor `COSTGATE_RETRIES` gives them. */
export const DEFAULT_RETRY: Required<Pick<RetryOptions, "tries" | "baseMs" | "maxDelayMs" | "totalMs">> = {
  tries: 3,
  baseMs: 200,
  maxDelayMs: 5_000,
  totalMs: 20_000,
};

/** One request. `json` is sent as the body with `Content-Type: application/json`. */
export interface HttpRequest {
  service: Service;
  method: "GET" | "HEAD" | "POST" | "DELETE";
  url: string;
  headers?: Record<string, string>;
  json?: unknown;
  transport?: TransportOptions;
  /**
   * Whether sending the request twice does no harm. Idempotent requests are retried on connection
   * errors, timeouts, a broken body, 429 and 502/503/504. Others (token issue, revoke) are retried
   * only when no response arrived: the connection was refused, reset or timed out before any byte
   * of an answer. Default: true for GET and HEAD, false otherwise — a read-only POST (a GraphQL
   * query) says so here.
   */
  idempotent?: boolean;
}

/** A response with its body read as text. Header names are lower case. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
  requestId?: string;
  info: RequestInfo;
  /** How many attempts it took (1 without retries). */
  attempts: number;
  /** What the response's `Retry-After` asks to wait, in ms, when it has one. */
  retryAfterMs?: number;
}

/** Headers whose values are credentials: never logged, never part of an error. */
const SECRET_HEADERS = new Set([
  "x-auth-token",
  "x-subject-token",
  "x-user-token",
  "authorization",
  "cookie",
]);

/** Statuses an idempotent request is tried again on. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

/**
 * Error codes meaning no answer came and the request may not even have arrived: retried for every
 * request. (ENOTFOUND and TLS errors are not: trying again will not help.)
 */
const NO_RESPONSE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * node:http is loaded at the first request, not with this module: the command's V8 startup snapshot
 * (scripts/cli-snapshot.js) is taken with this module loaded, and node cannot put node:http in one.
 */
function httpModule(): typeof http {
  // kept: a require() of a loaded builtin still goes through the module loader each time
  httpLoaded ??= require("node:http") as typeof http;
  return httpLoaded;
}
let httpLoaded: typeof http | undefined;

/** node:https (and so TLS) is loaded only for an https URL: ~5 ms less for a local endpoint. */
function https(): typeof Https {
  httpsLoaded ??= require("node:https") as typeof Https;
  return httpsLoaded;
}
let httpsLoaded: typeof Https | undefined;

const agents = new Map<string, http.Agent>();
let warnedInsecure = false;

function agentFor(transport: TransportOptions | undefined, secure: boolean): http.Agent {
  const key = `${secure ? "https" : "http"} ${transport?.insecure === true} ${transport?.caCert ?? ""}`;
  let agent = agents.get(key);
  if (agent) return agent;
  // Free sockets close after 4 s, before the usual 5 s of servers, so a reused one is not being closed.
  const keepAlive = { keepAlive: true, timeout: 4_000, scheduling: "lifo" as const };
  if (!secure) {
    agent = new (httpModule().Agent)(keepAlive);
  } else {
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
    agent = new (https().Agent)({ ...keepAlive, ca, rejectUnauthorized: transport?.insecure !== true });
  }
  agents.set(key, agent);
  return agent;
}

/** redactUrl drops the query string and any user info, so a URL can go into a message. */
export function redactUrl(raw: string | URL): string {
  try {
    const u = new URL(raw);
    if (!u.username && !u.password && !u.search && !u.hash) return u.href;
    u.username = "";
    u.password = "";
    u.search = "";
    u.hash = "";
    return u.toString();
  } catch {
    return "<invalid url>";
  }
}

/** Where one URL points, worked out once: the options of `http.request` and the URL as errors show it. */
interface Target {
  options: http.RequestOptions;
  secure: boolean;
  /** The URL without query string or user info ({@link redactUrl}). */
  redacted: string;
}

/**
 * Targets by URL string; cleared when full, so a process calling many URLs does not grow it. A URL
 * with user info or a query string is not kept: it may carry a credential.
 */
const targets = new Map<string, Target>();
const MAX_TARGETS = 64;

function targetFor(raw: string): Target {
  let target = targets.get(raw);
  if (target) return target;
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    throw new ConfigError("url", "<invalid url> is not a URL", { cause });
  }
  // only what http.request reads: the agent copies the request's options on every call
  const { protocol, hostname, port, path, auth } = urlToHttpOptions(url);
  const options: http.RequestOptions = { protocol, hostname, path };
  if (port !== undefined) options.port = port;
  if (auth !== undefined) options.auth = auth;
  target = { options, secure: url.protocol === "https:", redacted: redactUrl(url) };
  if (url.username || url.password || url.search) return target;
  if (targets.size >= MAX_TARGETS) targets.clear();
  targets.set(raw, target);
  return target;
}

/** debugEnabled tells whether `COSTGATE_DEBUG` asks for request logging on stderr. */
export function debugEnabled(): boolean {
  const v = process.env["COSTGATE_DEBUG"];
  return v !== undefined && v !== "" && v !== "0" && v !== "false";
}

/** debugLogger writes `costgate: <line>` on stderr with COSTGATE_DEBUG, else is undefined (call it with `?.`). */
function debugLogger(): ((line: string) => void) | undefined {
  return debugEnabled() ? (line) => process.stderr.write(`costgate: ${line}\n`) : undefined;
}

function describeHeaders(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${SECRET_HEADERS.has(k.toLowerCase()) ? "<redacted>" : v}`)
    .join(", ");
}

function positiveInt(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new ConfigError(name, `"${raw}" is not a whole number, ${min} or more`);
  }
  return n;
}

/**
 * @internal envSettings reads `COSTGATE_RETRIES` (retries after the first attempt: 0 turns them
 * off) and `COSTGATE_TIMEOUT_MS` (headers, body and per-attempt timeouts; connect is capped by it).
 * They replace the built-in defaults; options given in code win over them.
 */
export function envSettings(env: NodeJS.ProcessEnv = process.env): {
  timeouts: Timeouts;
  retry: RetryOptions;
} {
  const retries = positiveInt("COSTGATE_RETRIES", env["COSTGATE_RETRIES"], 0);
  const timeoutMs = positiveInt("COSTGATE_TIMEOUT_MS", env["COSTGATE_TIMEOUT_MS"], 1);
  const timeouts: Timeouts =
    timeoutMs === undefined
      ? {}
      : {
          connectMs: Math.min(DEFAULT_TIMEOUTS.connectMs, timeoutMs),
          headersMs: timeoutMs,
          bodyMs: timeoutMs,
          totalMs: timeoutMs,
        };
  return { timeouts, retry: retries === undefined ? {} : { tries: retries + 1 } };
}

type ResolvedRetry = Required<RetryOptions>;
type ResolvedTransport = { timeouts: Required<Timeouts>; retry: ResolvedRetry };

/** The settings of a request without transport options, and the environment values they came from. */
interface KeptDefaults {
  retries: string | undefined;
  timeoutMs: string | undefined;
  resolved: ResolvedTransport;
}
let defaultsFor: KeptDefaults | undefined;

/**
 * @internal resolveTransport merges the caller's options over the environment over the defaults.
 * Without timeouts or retry options (none at all, or only TLS ones) the answer depends only on
 * `COSTGATE_RETRIES` and `COSTGATE_TIMEOUT_MS`, so it is kept (frozen) until one of them changes.
 */
export function resolveTransport(
  transport: TransportOptions | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedTransport {
  if (transport?.timeouts !== undefined || transport?.retry !== undefined)
    return resolveUncached(transport, env);
  const retries = env["COSTGATE_RETRIES"];
  const timeoutMs = env["COSTGATE_TIMEOUT_MS"];
  const kept = defaultsFor;
  if (kept && kept.retries === retries && kept.timeoutMs === timeoutMs) return kept.resolved;
  const resolved = resolveUncached(undefined, env);
  Object.freeze(resolved.timeouts);
  Object.freeze(resolved.retry);
  defaultsFor = { retries, timeoutMs, resolved: Object.freeze(resolved) };
  return resolved;
}

function resolveUncached(transport: TransportOptions | undefined, env: NodeJS.ProcessEnv): ResolvedTransport {
  const fromEnv = envSettings(env);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...fromEnv.timeouts, ...definedOnly(transport?.timeouts) };
  const given = transport?.retry === false ? { tries: 1 } : definedOnly(transport?.retry);
  const retry: ResolvedRetry = {
    ...DEFAULT_RETRY,
    sleep: realSleep,
    // looked up at each call, so kept settings follow a stubbed Math.random or faked Date
    random: () => Math.random(),
    now: () => Date.now(),
    ...fromEnv.retry,
    ...given,
  };
  for (const [name, value] of Object.entries(timeouts)) {
    if (!(typeof value === "number" && value > 0)) {
      throw new ConfigError(`timeouts.${name}`, `must be a positive number of milliseconds (got ${value})`);
    }
  }
  if (!Number.isInteger(retry.tries) || retry.tries < 1) {
    throw new ConfigError("retry.tries", `must be a whole number, 1 or more (got ${retry.tries})`);
  }
  for (const name of ["baseMs", "maxDelayMs", "totalMs"] as const) {
    if (!(typeof retry[name] === "number" && retry[name] >= 0)) {
      throw new ConfigError(`retry.${name}`, `must be 0 or more milliseconds (got ${retry[name]})`);
    }
  }
  return { timeouts, retry };
}

function definedOnly<T extends object>(o: T | undefined): Partial<T> {
  if (!o) return {};
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function realSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * @internal parseRetryAfter reads `Retry-After` as delay-seconds or an HTTP date, in ms from `now`;
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const t = value.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const at = Date.parse(t);
  if (Number.isNaN(at) || !/[a-z]/i.test(t)) return undefined;
  return Math.max(0, at - now);
}

/** @internal backoffMs is the full-jitter wait after failed attempt `attempt` (1-based). */
export function backoffMs(
  attempt: number,
  r: Pick<ResolvedRetry, "baseMs" | "maxDelayMs" | "random">,
): number {
  const cap = Math.min(r.maxDelayMs, r.baseMs * 2 ** (attempt - 1));
  return Math.floor(r.random() * cap);
}

type TimeoutPhase = "connect" | "headers" | "body" | "total";

/** What one attempt ended with when it did not produce a whole response. */
class AttemptFailure {
  constructor(
    readonly cause: unknown,
    /** Whether the status line and headers had arrived. */
    readonly responded: boolean,
    readonly timeout?: TimeoutPhase,
    /** The whole-attempt limit that ran out, for a "total" timeout. */
    readonly limitMs?: number,
  ) {}
  get code(): string | undefined {
    return errorCode(this.cause);
  }
}

function errorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === "object"; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string") return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
}

/** once performs one attempt with its own connect, headers, body and whole-attempt timers. */
function once(
  target: Target,
  options: http.RequestOptions,
  body: string | undefined,
  t: Required<Timeouts>,
  attemptMs: number,
  maxBytes: number,
): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    const secure = target.secure;
    let settled = false;
    let responded = false;
    let phaseTimer: NodeJS.Timeout | undefined;
    let phaseMs = 0;
    let phase: TimeoutPhase = "connect";
    const totalTimer = setTimeout(() => fail(timeoutError("total"), "total"), attemptMs);
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(totalTimer);
      if (phaseTimer) clearTimeout(phaseTimer);
      fn();
    };
    const fail = (cause: unknown, timeout?: TimeoutPhase) => {
      if (settled) return; // a late error of a finished attempt: its socket is back in the pool
      const limitMs = timeout === "total" ? attemptMs : undefined;
      settle(() => reject(new AttemptFailure(cause, responded, timeout, limitMs)));
      req.destroy();
    };
    const phaseOver = () => fail(timeoutError(phase), phase);
    // One timer for the phases: restarted in place when the next phase has the same limit (headers
    // and body both have 30 s by default), replaced otherwise.
    const arm = (ms: number, next: TimeoutPhase) => {
      if (settled) return;
      phase = next;
      if (phaseTimer && ms === phaseMs) {
        phaseTimer.refresh();
        return;
      }
      if (phaseTimer) clearTimeout(phaseTimer);
      phaseMs = ms;
      phaseTimer = setTimeout(phaseOver, ms);
    };
    const req = (secure ? https() : httpModule()).request(options);
    // Errors after settling (a destroyed socket reporting late) are expected and ignored.
    req.on("error", (e) => fail(e));
    req.on("socket", (socket: Socket) => {
      if (settled) return;
      if (socket.connecting) {
        arm(t.connectMs, "connect");
        socket.once(secure ? "secureConnect" : "connect", () => {
          if (!settled) arm(t.headersMs, "headers");
        });
      } else {
        arm(t.headersMs, "headers");
      }
    });
    req.on("response", (res: http.IncomingMessage) => {
      responded = true;
      const tooLarge = () => fail(Object.assign(new Error("response too large"), { code: TOO_LARGE }));
      if (Number(res.headers["content-length"]) > maxBytes) return tooLarge();
      arm(t.bodyMs, "body");
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxBytes) return tooLarge();
        chunks.push(chunk);
        if (!settled) phaseTimer?.refresh();
      });
      res.on("error", (e) => fail(e));
      res.on("close", () => {
        if (!res.complete) fail(Object.assign(new Error("the response ended early"), { code: "ECONNRESET" }));
      });
      res.on("end", () => {
        // Node gives the names in lower case, repeated headers joined, set-cookie as a list
        const flat: Record<string, string | undefined> = {};
        const given = res.headers;
        for (const k in given) {
          const v = given[k];
          flat[k] = Array.isArray(v) ? v.join(", ") : v;
        }
        const text =
          chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8");
        settle(() => resolve({ status: res.statusCode ?? 0, headers: flat, text }));
      });
    });
    // a string body goes out with the header in one write; a Buffer would be a second chunk
    req.end(body);
  });
}

/** The code of an attempt ended because the body passed `maxResponseBytes`. */
const TOO_LARGE = "COSTGATE_RESPONSE_TOO_LARGE";

function timeoutError(phase: TimeoutPhase): Error {
  return Object.assign(new Error(`${phase} timeout`), { code: `COSTGATE_${phase.toUpperCase()}_TIMEOUT` });
}

function toError(
  f: AttemptFailure,
  info: RequestInfo,
  t: Required<Timeouts>,
  attempts: number,
): NetworkError {
  const what = `${info.method} ${info.url}`;
  const tries = attempts > 1 ? ` (${attempts} attempts)` : "";
  if (f.timeout) {
    const phase =
      f.timeout === "connect"
        ? `while connecting (${t.connectMs} ms)`
        : f.timeout === "headers"
          ? `waiting for headers (${t.headersMs} ms)`
          : f.timeout === "body"
            ? `reading the body (${t.bodyMs} ms between chunks)`
            : `before the whole answer arrived (${f.limitMs ?? t.totalMs} ms)`;
    return new TimeoutError(`${info.service} request timed out ${phase}: ${what}${tries}`, {
      request: info,
      cause: f.cause,
    });
  }
  const e = f.cause;
  const reason = f.code ?? (e instanceof Error ? e.message : String(e));
  let message: string;
  if (f.responded) {
    message = `the answer broke off while reading the ${info.service} endpoint's response (${reason}): ${what}${tries}`;
  } else if (f.code?.startsWith("HPE_")) {
    // node's HTTP parser refused the first bytes: not an HTTP server, or TLS spoken to http://
    message = `the ${info.service} endpoint did not answer in HTTP (${reason}): ${what}${tries} — check the scheme (http:// or https://) and the port of the URL`;
  } else {
    message = `cannot reach the ${info.service} endpoint (${reason}): ${what}${tries}${tlsHint(f.code, e)}`;
  }
  return new NetworkError(message, { request: info, cause: e });
}

/** tlsHint says what a certificate error code (DEPTH_ZERO_SELF_SIGNED_CERT, ...) means and what to do. */
function tlsHint(code: string | undefined, cause?: unknown): string {
  // https:// to a server speaking plain HTTP: OpenSSL reads its answer as a bad TLS record
  const said = cause instanceof Error ? cause.message : "";
  if (code === "ERR_SSL_WRONG_VERSION_NUMBER" || (code === "EPROTO" && /wrong version number/i.test(said))) {
    return " — the server does not speak TLS there; is the URL http:// rather than https://, or the port wrong?";
  }
  if (!code || !/CERT|SELF_SIGNED|UNABLE_TO_(GET_ISSUER|VERIFY_LEAF)/.test(code)) return "";
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID") {
    return " — TLS certificate verification failed: the certificate does not name this host; use the host name it was issued for";
  }
  return " — TLS certificate verification failed — trust the CA with OS_CACERT (--os-cacert) or, for testing only, --insecure";
}

/** @internal retryReason names why an attempt's outcome is worth another try, or undefined. */
export function retryReason(
  outcome: { status: number } | { failure: { responded: boolean; code?: string; timeout?: string } },
  idempotent: boolean,
): string | undefined {
  if ("status" in outcome) {
    return idempotent && RETRY_STATUSES.has(outcome.status) ? `HTTP ${outcome.status}` : undefined;
  }
  const f = outcome.failure;
  // the same body would come again
  if (f.code === TOO_LARGE) return undefined;
  const what = f.timeout ? `${f.timeout} timeout` : (f.code ?? "error");
  if (idempotent) {
    if (f.timeout || f.responded || (f.code && NO_RESPONSE_CODES.has(f.code))) return what;
    return undefined;
  }
  // Not idempotent: only when no answer arrived; a headers timeout may mean the server is working on it.
  if (f.responded) return undefined;
  if (f.timeout === "connect") return what;
  if (!f.timeout && f.code && NO_RESPONSE_CODES.has(f.code)) return `${what}, no response`;
  return undefined;
}

/**
 * send performs a request and reads the whole body, retrying as {@link HttpRequest.idempotent}
 * and {@link RetryOptions} say. It throws NetworkError or TimeoutError when no complete response
 * arrives; any status is returned to the caller (after retries, the last one).
 */
export async function send(req: HttpRequest): Promise<HttpResponse> {
  const target = targetFor(req.url);
  const info: RequestInfo = { service: req.service, method: req.method, url: target.redacted };
  const { timeouts: t, retry } = resolveTransport(req.transport);
  const maxBytes = req.transport?.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!(typeof maxBytes === "number" && maxBytes > 0)) {
    throw new ConfigError("maxResponseBytes", `must be a positive number of bytes (got ${maxBytes})`);
  }
  const idempotent = req.idempotent ?? (req.method === "GET" || req.method === "HEAD");
  const headers: Record<string, string> = { accept: "application/json", ...req.headers };
  let body: string | undefined;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers["content-type"] = "application/json";
    headers["content-length"] = String(Buffer.byteLength(body, "utf8"));
  }
  const options: http.RequestOptions = {
    ...target.options,
    method: req.method,
    headers,
    agent: agentFor(req.transport, target.secure),
  };
  // with `log?.(...)` the message is not even built when debugging is off
  const log = debugLogger();
  const start = retry.now();
  for (let attempt = 1; ; attempt++) {
    const attemptMs =
      attempt === 1 ? t.totalMs : Math.min(t.totalMs, Math.max(1, retry.totalMs - (retry.now() - start)));
    const began = log ? performance.now() : 0;
    log?.(
      `-> ${info.method} ${info.url}${retry.tries > 1 ? ` (attempt ${attempt}/${retry.tries})` : ""} [${describeHeaders(headers)}]`,
    );
    let outcome: { raw: RawResponse } | { failure: AttemptFailure };
    try {
      outcome = { raw: await once(target, options, body, t, attemptMs, maxBytes) };
    } catch (e) {
      if (!(e instanceof AttemptFailure)) throw e;
      outcome = { failure: e };
    }
    if (log) {
      const ms = Math.round(performance.now() - began);
      if ("raw" in outcome) {
        const raw = outcome.raw;
        const requestId = raw.headers["x-openstack-request-id"] ?? raw.headers["x-request-id"];
        log(`<- ${raw.status} ${info.method} ${info.url} in ${ms} ms${requestId ? ` (${requestId})` : ""}`);
      } else {
        log(`!! ${failureError(outcome.failure, info, t, 1, maxBytes).message} after ${ms} ms`);
      }
    }
    const reason = retryReason("raw" in outcome ? outcome.raw : outcome, idempotent);
    const retryAfterMs =
      "raw" in outcome ? parseRetryAfter(outcome.raw.headers["retry-after"], retry.now()) : undefined;
    if (reason && attempt < retry.tries) {
      // what the server asks for, else the backoff; no wait goes past the budget
      const delay = retryAfterMs ?? backoffMs(attempt, retry);
      const spent = retry.now() - start;
      if (spent + delay < retry.totalMs) {
        log?.(
          `retry ${attempt + 1}/${retry.tries} of ${info.method} ${info.url} in ${delay} ms (after ${reason})`,
        );
        await retry.sleep(delay);
        continue;
      }
      log?.(
        `no retry of ${info.method} ${info.url}: waiting ${delay} ms would pass the ${retry.totalMs} ms retry budget`,
      );
    }
    if ("failure" in outcome) throw failureError(outcome.failure, info, t, attempt, maxBytes);
    const raw = outcome.raw;
    const requestId = raw.headers["x-openstack-request-id"] ?? raw.headers["x-request-id"];
    const res: HttpResponse = { ...raw, requestId, info, attempts: attempt };
    if (retryAfterMs !== undefined) res.retryAfterMs = retryAfterMs;
    return res;
  }
}

/** The error of a failed last attempt: a body over `maxResponseBytes` is a ResponseError, others {@link toError}. */
function failureError(
  f: AttemptFailure,
  info: RequestInfo,
  t: Required<Timeouts>,
  attempts: number,
  maxBytes: number,
): NetworkError | ResponseError {
  if (f.code !== TOO_LARGE) return toError(f, info, t, attempts);
  return new ResponseError(
    `the ${info.service} endpoint's response to ${info.method} ${info.url} is larger than ${sizeText(maxBytes)} (maxResponseBytes); check the URL, or raise transport.maxResponseBytes`,
    { request: info },
  );
}

/** sizeText writes a byte count as "16 MiB" when it is a whole number of MiB, else "1000 bytes". */
function sizeText(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

/** parseJson parses a body, returning undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * describeBody names what a body without a usable message looks like, without quoting it (it might
 * echo a secret).
 */
export function describeBody(res: HttpResponse): string {
  const type = res.headers["content-type"] ?? "no content type";
  if (res.text.length === 0) return "an empty body";
  if (/^\s*</.test(res.text) || type.includes("html")) return `an HTML page (${type})`;
  if (parseJson(res.text) !== undefined)
    return `a JSON body without an error message (${res.text.length} bytes)`;
  return `a non-JSON body (${type}, ${res.text.length} bytes)`;
}

/**
 * errorMessageOf finds the message of an error body of a common shape — `{error: {message}}`
 * (Keystone's), `{error: "..."}`, `{message}`, `{detail}` or `{title}` — first line only; else
 * undefined. The caller redacts it: a server may echo what it was sent.
 */
export function errorMessageOf(body: unknown): string | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  const o = body as Record<string, unknown>;
  const nested = o["error"];
  const candidates = [
    nested !== null && typeof nested === "object" ? (nested as Record<string, unknown>)["message"] : nested,
    o["message"],
    o["detail"],
    o["title"],
  ];
  for (const c of candidates) {
    if (typeof c === "string" && c.trim() !== "") return (c.split("\n")[0] ?? c).trim();
  }
  return undefined;
}

/**
 * statusHint is what to do about a status any endpoint may answer: a 3xx is not followed (where it
 * points is shown without query or user info), a 429 or 5xx is worth trying later (with what its
 * Retry-After asked for). `who` names the endpoint ("Keystone"); "" for other statuses.
 */
export function statusHint(res: HttpResponse, who: string): string {
  if (res.status === 429 || res.status >= 500) {
    const wait =
      res.retryAfterMs === undefined ? "" : ` (it asks to wait ${Math.ceil(res.retryAfterMs / 1000)} s)`;
    return `${who} or a proxy in front of it failed; try again later${wait}`;
  }
  if (res.status < 300 || res.status > 399) return "";
  const location = res.headers["location"];
  let where = "";
  if (location) {
    try {
      where = ` (Location: ${redactUrl(new URL(location, res.info.url))})`;
    } catch {
      // an unreadable Location: not shown
    }
  }
  return `costgate does not follow redirects; use the address it points to${where}`;
}
