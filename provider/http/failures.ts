/**
 * What an attempt that produced no whole response ended with, and the error a person reads about it:
 * which phase timed out, whether the endpoint or the proxy could not be reached, what a TLS code means.
 */
import {
  NetworkError,
  type RequestInfo,
  ResponseError,
  type SettingNames,
  settingName,
  TimeoutError,
} from "../errors";
import { endpointText } from "../text";
import type { Timeouts } from "./options";
import type { ProxyChoice } from "./proxy";
import { TOO_LARGE } from "./retry";

/** @internal */
export type TimeoutPhase = "connect" | "headers" | "body" | "total";

/** What one attempt ended with when it did not produce a whole response. @internal */
export class AttemptFailure {
  constructor(
    readonly cause: unknown,
    /** Whether the status line and headers had arrived. */
    readonly responded: boolean,
    readonly timeout?: TimeoutPhase,
    /** The whole-attempt limit that ran out, for a "total" timeout. */
    readonly limitMs?: number,
    /** The caller's signal aborted: no retry, no other reading of the cause. */
    readonly aborted = false,
  ) {}
  get code(): string | undefined {
    const code = errorCode(this.cause);
    // undici names a connection the other side closed UND_ERR_SOCKET; said as node says it
    return code === "UND_ERR_SOCKET" ? "ECONNRESET" : code;
  }
  /** The status with which a proxy refused to open a tunnel (or asked for credentials), if it did. */
  get proxyStatus(): number | undefined {
    const said = this.cause instanceof Error ? this.cause.message : "";
    const m = /Proxy response \((\d{3})\) !== 200|Proxy Authentication Required \((\d{3})\)/.exec(said);
    return m ? Number(m[1] ?? m[2]) : undefined;
  }
  /** Outcomes that another attempt cannot change. */
  get final(): boolean {
    return this.aborted || this.proxyStatus !== undefined;
  }
}

/** @internal errorCode is the first string `code` on an error or its causes. */
export function errorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === "object"; i++) {
    const code = (cur as { code?: unknown }).code;
    // undici wraps a TLS error met through a proxy tunnel: the cause says what it was
    if (typeof code === "string" && code !== "UND_ERR_PRX_TLS") return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Codes of a connection that never opened: through a proxy, it is the proxy that was not reached. */
const CONNECT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
]);

function viaText(proxy: ProxyChoice | undefined): string {
  return proxy ? ` through the proxy ${proxy.shown} (${proxy.from})` : "";
}

/** toError turns a failed last attempt into the error a person reads. @internal */
export function toError(
  f: AttemptFailure,
  info: RequestInfo,
  t: Required<Timeouts>,
  attempts: number,
  maxBytes: number,
  proxy?: ProxyChoice,
  names?: SettingNames,
): NetworkError | ResponseError {
  const what = `${info.method} ${info.url}`;
  const tries = attempts > 1 ? ` (${attempts} attempts)` : "";
  if (f.code === TOO_LARGE) {
    return new ResponseError(
      `the ${info.service} endpoint's response to ${what} is larger than ${sizeText(maxBytes)} (maxResponseBytes); check the URL, or raise transport.maxResponseBytes`,
      { request: info },
    );
  }
  if (f.aborted) {
    return new NetworkError(`the ${info.service} request was cancelled (its signal aborted): ${what}`, {
      request: info,
      cause: f.cause,
    });
  }
  if (f.timeout) {
    const phase =
      f.timeout === "connect"
        ? `while connecting${proxy ? ` to the proxy ${proxy.shown} (${proxy.from})` : ""} (${t.connectMs} ms)`
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
  // undici's own words may quote what a server or a proxy sent: shown short and clean
  const reason = endpointText(f.code ?? (e instanceof Error ? e.message : String(e)), [], 200);
  const refused = f.proxyStatus;
  let message: string;
  if (proxy && refused !== undefined) {
    const hint =
      refused !== 407
        ? `check ${proxy.from} and the proxy's rules for this host, or add the host to NO_PROXY`
        : hasUserInfo(proxy.url)
          ? `check the user and password in ${proxy.from} (percent-encode @ : / % and spaces in them)`
          : "it asks for credentials: put them in the proxy URL (http://user:password@host:port)";
    // an https:// endpoint is reached through a CONNECT tunnel: the proxy's answer to it is all there is
    const connect = info.url.startsWith("https:") ? `the proxy refused the CONNECT with ${refused}: ` : "";
    message = `the proxy ${proxy.shown} (${proxy.from}) refused the ${info.service} request with HTTP ${refused}: ${what}${tries} — ${connect}${hint}`;
  } else if (f.responded) {
    message = `the answer broke off while reading the ${info.service} endpoint's response${viaText(proxy)} (${reason}): ${what}${tries}`;
  } else if (f.code?.startsWith("HPE_") || (e instanceof Error && e.name === "HTTPParserError")) {
    // the HTTP parser refused the first bytes: not an HTTP server, or TLS spoken to http://
    message = proxy
      ? `the proxy ${proxy.shown} (${proxy.from}) or the ${info.service} endpoint behind it did not answer in HTTP (${reason}): ${what}${tries} — check the proxy URL's scheme and port`
      : `the ${info.service} endpoint did not answer in HTTP (${reason}): ${what}${tries} — check the scheme (http:// or https://) and the port of the URL`;
  } else if (proxy && f.code && CONNECT_CODES.has(f.code)) {
    message = `cannot reach the proxy ${proxy.shown} (${proxy.from}) for the ${info.service} endpoint (${reason}): ${what}${tries} — check ${proxy.from}, or add the host to NO_PROXY to connect directly`;
  } else {
    message = `cannot reach the ${info.service} endpoint${viaText(proxy)} (${reason}): ${what}${tries}${tlsHint(f.code, e, names)}`;
  }
  return new NetworkError(message, { request: info, cause: e });
}

/** hasUserInfo tells whether a proxy URL carries credentials (never what they are). */
function hasUserInfo(url: string): boolean {
  try {
    const u = new URL(url);
    return u.username !== "" || u.password !== "";
  } catch {
    return false;
  }
}

/**
 * tlsHint says what a certificate error code (DEPTH_ZERO_SELF_SIGNED_CERT, ...) means and what to do,
 * naming the settings in the caller's words (`caCert`, or the command line's --os-cacert).
 */
function tlsHint(code: string | undefined, cause?: unknown, names?: SettingNames): string {
  // https:// to a server speaking plain HTTP: OpenSSL reads its answer as a bad TLS record
  const said = cause instanceof Error ? cause.message : "";
  if (code === "ERR_SSL_WRONG_VERSION_NUMBER" || (code === "EPROTO" && /wrong version number/i.test(said))) {
    return " — the server does not speak TLS there; is the URL http:// rather than https://, or the port wrong?";
  }
  if (!code || !/CERT|SELF_SIGNED|UNABLE_TO_(GET_ISSUER|VERIFY_LEAF)/.test(code)) return "";
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID") {
    return " — TLS certificate verification failed: the certificate does not name this host; use the host name it was issued for";
  }
  return ` — TLS certificate verification failed — trust the CA with OS_CACERT (${settingName(names, "caCert")}) or, for testing only, ${settingName(names, "insecure", "insecure: true")}`;
}

/** sizeText writes a byte count as "16 MiB" when it is a whole number of MiB, else "1000 bytes". */
function sizeText(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
