/**
 * send: one request, its attempts and retries, over undici; debug logging with credentials redacted.
 * Callers decide what a status means.
 */
import type { Dispatcher } from "undici";
import {
  ConfigError,
  LimitError,
  type NetworkError,
  type RequestInfo,
  type ResponseError,
  type SettingNames,
  settingName,
} from "../errors";
import { cleanText, endpointText, rememberSecret } from "../text";
import { redactUrl } from "./bodies";
import { dispatcherFor } from "./dispatcher";
import { AttemptFailure, type TimeoutPhase, toError } from "./failures";
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  type RequestBudget,
  resolveTransport,
  type Timeouts,
  type TransportOptions,
} from "./options";
import { type ProxyChoice, proxyFor } from "./proxy";
import { backoffMs, parseRetryAfter, retryReason, TOO_LARGE } from "./retry";
import type { HttpRequest, HttpResponse } from "./types";

/** Headers whose values are credentials: never logged, never part of an error. */
const SECRET_HEADERS = new Set([
  "x-auth-token",
  "x-subject-token",
  "x-user-token",
  "authorization",
  "proxy-authorization",
  "cookie",
]);

/** EMULATOR_HEADER marks every answer of costgate's own emulator (emulator/http.ts). */
export const EMULATOR_HEADER = "x-costgate-emulator";

let emulatorListener: ((origin: string) => void) | undefined;

/**
 * onEmulatorAnswer registers what to do when an answer carries {@link EMULATOR_HEADER} (the command
 * line says once on stderr that it talks to the emulator); `undefined` removes it. It is called with
 * the origin (`http://127.0.0.1:PORT`) of every such answer.
 */
export function onEmulatorAnswer(listener: ((origin: string) => void) | undefined): void {
  emulatorListener = listener;
}
let warnedPlain = false;

/** warnPlainTls says once that TLS settings do nothing for an http:// URL (no TLS there to verify). */
function warnPlainTls(info: RequestInfo, names: SettingNames | undefined): void {
  if (warnedPlain) return;
  warnedPlain = true;
  process.emitWarning(
    `the ${info.service} URL is http://, so the CA bundle (OS_CACERT, ${settingName(names, "caCert")}) and insecure (OS_INSECURE, ${settingName(names, "insecure")}) have no effect: nothing is encrypted or verified there; use https://`,
    "CostgateTlsWarning",
  );
}

/** spend counts one attempt against each budget, or throws a LimitError before it is sent. */
function spend(budgets: (RequestBudget | undefined)[], info: RequestInfo): void {
  for (const b of budgets) {
    if (b && b.used >= b.limit) {
      throw new LimitError(
        b.setting,
        `reached: ${b.used} requests already sent, the most allowed; not sending ${info.method} ${info.url}. Narrow what was asked (a shorter period, fewer projects, longer windows) or raise ${b.setting}`,
      );
    }
  }
  for (const b of budgets) if (b) b.used += 1;
}

/** debugEnabled tells whether `COSTGATE_DEBUG` asks for request logging on stderr. */
export function debugEnabled(): boolean {
  const v = process.env["COSTGATE_DEBUG"];
  return v !== undefined && v !== "" && v !== "0" && v !== "false";
}

/** debugLogger writes `costgate: <line>` on stderr with COSTGATE_DEBUG, else is undefined (call it with `?.`). */
function debugLogger(): ((line: string) => void) | undefined {
  return debugEnabled() ? (line) => process.stderr.write(`costgate: ${cleanText(line)}\n`) : undefined;
}

/** Keys of a JSON body whose string values are credentials (Keystone's password and secret). */
const SECRET_KEYS = /password|secret/i;

/** secretsOfBody lists the credentials in a request body, by key, down to a few levels. */
function secretsOfBody(value: unknown, depth = 0, key = ""): string[] {
  if (typeof value === "string") return SECRET_KEYS.test(key) ? [value] : [];
  if (depth > 8 || value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) =>
    secretsOfBody(v, depth + 1, Array.isArray(value) ? key : k),
  );
}

/** credentialsOf lists what a header value carries: itself, without its scheme, and Basic's pair and password. */
function credentialsOf(value: string): string[] {
  const bare = value.replace(/^(Basic|Bearer|Token)\s+/i, "");
  const out = [value, bare];
  if (/^Basic\s/i.test(value)) {
    const pair = Buffer.from(bare, "base64").toString("utf8");
    out.push(pair, pair.slice(pair.indexOf(":") + 1));
  }
  return out;
}

/** userInfoOf lists the credentials in a URL's user info: the password, and `user:password`. */
function userInfoOf(raw: string): string[] {
  // user info is what comes before an "@" of the URL's text: none without one
  if (!raw.includes("@")) return [];
  try {
    const u = new URL(raw);
    if (!u.password) return [];
    const pw = decodeURIComponent(u.password);
    return [pw, `${decodeURIComponent(u.username)}:${pw}`];
  } catch {
    return [];
  }
}

/**
 * rememberRequestSecrets tells provider/text.ts every credential a request carries — its secret
 * headers, the secrets of its body, the user info of its URL and of its proxy — so no text that
 * comes back (an echo, a proxy's page) is printed with one.
 */
function rememberRequestSecrets(req: HttpRequest, headers: Record<string, string>, proxy?: ProxyChoice) {
  for (const [k, v] of Object.entries(headers)) {
    if (SECRET_HEADERS.has(k.toLowerCase())) rememberSecret(...credentialsOf(v));
  }
  rememberSecret(...(req.secrets ?? []), ...secretsOfBody(req.json), ...userInfoOf(req.url));
  if (proxy) rememberSecret(...userInfoOf(proxy.url));
}

function describeHeaders(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${SECRET_HEADERS.has(k.toLowerCase()) ? "<redacted>" : v}`)
    .join(", ");
}

/** Where one URL points: undici's origin and path, and the URL as errors show it. */
interface Target {
  url: URL;
  origin: string;
  path: string;
  /** Basic credentials from the URL's user info, if any. */
  authorization?: string;
  /** The URL without query string or user info ({@link redactUrl}). */
  redacted: string;
}

function targetFor(raw: string): Target {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // no cause: URL's TypeError carries the input, which may hold a credential
    throw new ConfigError("url", "<invalid url> is not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError("url", `${url.protocol}// is not http:// or https://: ${redactUrl(url)}`);
  }
  const target: Target = {
    url,
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    redacted: redactUrl(url),
  };
  if (url.username || url.password) {
    const user = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    target.authorization = `Basic ${Buffer.from(user).toString("base64")}`;
  }
  return target;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
  repeated: string[];
}

const TIMEOUT_CODES: Record<string, TimeoutPhase> = {
  UND_ERR_CONNECT_TIMEOUT: "connect",
  UND_ERR_HEADERS_TIMEOUT: "headers",
  UND_ERR_BODY_TIMEOUT: "body",
};

/** What one exchange read: the status, the headers as undici parses them, the whole body as text. */
interface Exchanged {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A body that starts with UTF-8's byte-order mark: body.text() skips it. */
const hasBom = (b: Buffer) => b.length > 2 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;

/**
 * exchange sends one request through undici's `dispatch` and reads its whole body into memory: what
 * `dispatcher.request()` then `body.text()` do, without the response stream and async resource they build
 * for each request (~0.15 ms of CPU a request in a short process; `check` of 100 projects sends 200). The
 * same undici client does the connecting, the timeouts (headersTimeout, bodyTimeout) and the response size
 * limit; the headers are undici's parse of them (lower-case names, repeated ones as a list); the body is
 * decoded as body.text() decodes it (UTF-8, a leading byte-order mark skipped). Informational (1xx)
 * answers are passed over, as request() does. A content-length over `maxBytes` aborts at the headers with
 * a TOO_LARGE error; `signal` aborts the request at any stage, queued ones included, and the promise
 * rejects with its reason. `state.responded` is set when the headers arrive.
 */
function exchange(
  dispatcher: Dispatcher,
  opts: Dispatcher.DispatchOptions,
  signal: AbortSignal,
  maxBytes: number,
  state: { responded: boolean },
): Promise<Exchanged> {
  return new Promise<Exchanged>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let reason: Error | undefined;
    let settled = false;
    let statusCode = 0;
    let headers: Exchanged["headers"] = {};
    const chunks: Buffer[] = [];
    let length = 0;
    const settle = (error: unknown, value?: Exchanged) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      if (value) resolve(value);
      else reject(error);
    };
    const stop = (error: Error) => {
      reason ??= error;
      controller?.abort(error);
      settle(error);
    };
    function onAbort() {
      stop(signal.reason instanceof Error ? signal.reason : new Error("This operation was aborted"));
    }
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      dispatcher.dispatch(opts, {
        onRequestStart(c) {
          controller = c;
          // aborted while queued: never sent
          if (reason) c.abort(reason);
        },
        onResponseStart(_c, status, h) {
          if (status < 200) return;
          statusCode = status;
          headers = h as Exchanged["headers"];
          state.responded = true;
          if (Number(headers["content-length"]) > maxBytes) {
            stop(Object.assign(new Error("response too large"), { code: TOO_LARGE }));
          }
        },
        onResponseData(_c, chunk) {
          chunks.push(chunk);
          length += chunk.length;
        },
        onResponseEnd() {
          const buffer = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length);
          const text = length === 0 ? "" : buffer.toString("utf8", hasBom(buffer) ? 3 : 0);
          settle(undefined, { statusCode, headers, text });
        },
        onResponseError(_c, error) {
          settle(error);
        },
      });
    } catch (error) {
      settle(error);
    }
  });
}

/**
 * attempt performs one try: undici's connect, headers and body timeouts, and a whole-attempt limit
 * (with the caller's signal) that aborts it.
 */
async function attempt(
  dispatcher: Dispatcher,
  target: Target,
  method: HttpRequest["method"],
  headers: Record<string, string>,
  body: string | undefined,
  t: Required<Timeouts>,
  attemptMs: number,
  maxBytes: number,
  callerSignal: AbortSignal | undefined,
): Promise<RawResponse> {
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(), attemptMs);
  const signal = callerSignal ? AbortSignal.any([limit.signal, callerSignal]) : limit.signal;
  const state = { responded: false };
  try {
    const res = await exchange(
      dispatcher,
      {
        origin: target.origin,
        path: target.path,
        method,
        headers,
        body: body ?? null,
        headersTimeout: t.headersMs,
        bodyTimeout: t.bodyMs,
      },
      signal,
      maxBytes,
      state,
    );
    // undici frees the connection just after the body's end: a request sent in the same tick would
    // open a second connection (and pay a second TLS handshake) instead of reusing this one
    await new Promise((resolve) => setImmediate(resolve));
    // names come in lower case; repeated headers as a list
    const flat: Record<string, string | undefined> = {};
    const repeated: string[] = [];
    for (const [k, v] of Object.entries(res.headers)) {
      if (Array.isArray(v) && v.length > 1) repeated.push(k);
      flat[k] = Array.isArray(v) ? v.join(", ") : v;
    }
    return { status: res.statusCode, headers: flat, text: res.text, repeated };
  } catch (e) {
    const responded = state.responded;
    if (callerSignal?.aborted)
      throw new AttemptFailure(callerSignal.reason ?? e, responded, undefined, undefined, true);
    if (limit.signal.aborted) throw new AttemptFailure(e, responded, "total", attemptMs);
    const code = (e as { code?: unknown } | undefined)?.code;
    if (code === "UND_ERR_RES_EXCEEDED_MAX_SIZE") {
      throw new AttemptFailure(
        Object.assign(new Error("response too large"), { code: TOO_LARGE }),
        responded,
      );
    }
    throw new AttemptFailure(e, responded, typeof code === "string" ? TIMEOUT_CODES[code] : undefined);
  } finally {
    clearTimeout(timer);
  }
}

/** sleep waits `ms`, or less when the caller's signal aborts. */
async function sleepUnless(
  sleep: (ms: number) => Promise<void>,
  ms: number,
  signal: AbortSignal | undefined,
) {
  if (!signal) return sleep(ms);
  if (signal.aborted) return;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

/**
 * send performs a request and reads the whole body, retrying as {@link HttpRequest.idempotent}
 * and {@link RetryOptions} say, through the proxy {@link TransportOptions.proxy} (or the environment)
 * names. It throws NetworkError or TimeoutError when no complete response arrives; any status is
 * returned to the caller (after retries, the last one).
 */
export async function send(req: HttpRequest): Promise<HttpResponse> {
  const target = targetFor(req.url);
  const info: RequestInfo = { service: req.service, method: req.method, url: target.redacted };
  const { timeouts: t, retry } = resolveTransport(req.transport);
  const maxBytes = req.transport?.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!(typeof maxBytes === "number" && Number.isInteger(maxBytes) && maxBytes > 0)) {
    throw new ConfigError("maxResponseBytes", `must be a positive whole number of bytes (got ${maxBytes})`);
  }
  if (target.url.protocol === "http:" && (req.transport?.insecure || req.transport?.caCert))
    warnPlainTls(info, req.transport?.names);
  const proxy: ProxyChoice | undefined = proxyFor(target.url, req.transport?.proxy);
  const signal = req.transport?.signal;
  const idempotent = req.idempotent ?? (req.method === "GET" || req.method === "HEAD");
  const headers: Record<string, string> = { accept: "application/json", ...req.headers };
  if (target.authorization && !Object.keys(headers).some((k) => k.toLowerCase() === "authorization")) {
    headers["authorization"] = target.authorization;
  }
  rememberRequestSecrets(req, headers, proxy);
  let body: string | undefined;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers["content-type"] = "application/json";
  }
  const dispatcher = dispatcherFor({
    caCert: req.transport?.caCert,
    insecure: req.transport?.insecure === true,
    proxy,
    connectMs: t.connectMs,
    maxBytes,
  });
  const via = proxy ? ` via proxy ${proxy.shown} (${proxy.from})` : "";
  // with `log?.(...)` the message is not even built when debugging is off
  const log = debugLogger();
  const start = retry.now();
  for (let n = 1; ; n++) {
    const attemptMs =
      n === 1 ? t.totalMs : Math.min(t.totalMs, Math.max(1, retry.totalMs - (retry.now() - start)));
    const began = log ? performance.now() : 0;
    log?.(
      `-> ${info.method} ${info.url}${retry.tries > 1 ? ` (attempt ${n}/${retry.tries})` : ""}${via} [${describeHeaders(headers)}]`,
    );
    let outcome: { raw: RawResponse } | { failure: AttemptFailure };
    spend([req.transport?.runBudget, req.transport?.requestBudget], info);
    if (signal?.aborted) {
      outcome = { failure: new AttemptFailure(signal.reason, false, undefined, undefined, true) };
    } else {
      try {
        outcome = {
          raw: await attempt(dispatcher, target, req.method, headers, body, t, attemptMs, maxBytes, signal),
        };
      } catch (e) {
        if (!(e instanceof AttemptFailure)) throw e;
        outcome = { failure: e };
      }
    }
    if (log) {
      const ms = Math.round(performance.now() - began);
      if ("raw" in outcome) {
        const raw = outcome.raw;
        const requestId = raw.headers["x-openstack-request-id"] ?? raw.headers["x-request-id"];
        const rid = requestId === undefined ? "" : ` (${endpointText(requestId, [], 128)})`;
        log(`<- ${raw.status} ${info.method} ${info.url} in ${ms} ms${rid}`);
      } else {
        log(
          `!! ${toError(outcome.failure, info, t, 1, maxBytes, proxy, req.transport?.names).message} after ${ms} ms`,
        );
      }
    }
    const reason = retryReason(
      "raw" in outcome
        ? outcome.raw
        : {
            failure: {
              responded: outcome.failure.responded,
              code: outcome.failure.code,
              timeout: outcome.failure.timeout,
              final: outcome.failure.final,
            },
          },
      idempotent,
    );
    const retryAfterMs =
      "raw" in outcome ? parseRetryAfter(outcome.raw.headers["retry-after"], retry.now()) : undefined;
    if (reason && n < retry.tries) {
      // what the server asks for, else the backoff; no wait goes past the budget
      const delay = retryAfterMs ?? backoffMs(n, retry);
      const spent = retry.now() - start;
      if (spent + delay < retry.totalMs) {
        log?.(`retry ${n + 1}/${retry.tries} of ${info.method} ${info.url} in ${delay} ms (after ${reason})`);
        await sleepUnless(retry.sleep, delay, signal);
        continue;
      }
      log?.(
        `no retry of ${info.method} ${info.url}: waiting ${delay} ms would pass the ${retry.totalMs} ms retry budget`,
      );
    }
    if ("failure" in outcome)
      throw toError(outcome.failure, info, t, n, maxBytes, proxy, req.transport?.names) as
        | NetworkError
        | ResponseError;
    const { repeated, ...raw } = outcome.raw;
    // an issued token (X-Subject-Token) is a secret of the run from now on
    for (const [k, v] of Object.entries(raw.headers)) {
      if (v !== undefined && SECRET_HEADERS.has(k)) rememberSecret(...credentialsOf(v));
    }
    const requestId = raw.headers["x-openstack-request-id"] ?? raw.headers["x-request-id"];
    const res: HttpResponse = { ...raw, requestId, info, attempts: n };
    if (repeated.length > 0) res.repeatedHeaders = repeated;
    if (raw.headers[EMULATOR_HEADER] !== undefined) {
      res.emulator = true;
      emulatorListener?.(target.origin);
    }
    if (retryAfterMs !== undefined) res.retryAfterMs = retryAfterMs;
    if (proxy) res.proxy = { shown: proxy.shown, from: proxy.from };
    return res;
  }
}
