/**
 * What keeps a web page from driving the emulator: a `Host` that is not a name of the address it
 * listens on is refused (DNS rebinding), as is a request from a page of another origin, and the knob
 * control takes only `application/json` (a form or `text/plain` POST needs no CORS preflight).
 */
import { isIP } from "node:net";
import { jsonReply, type Reply } from "./http";

/** The hosts a request may name: loopback names, the listen address, and the names given. */
export interface HostRule {
  /** The address the server listens on (`127.0.0.1`, `::1`, `0.0.0.0`, a LAN address). */
  listen: string;
  /** More host names to take (`--allow-host`), e.g. a container's service name. */
  allowed: readonly string[];
}

const bare = (host: string) => host.replace(/^\[|\]$/g, "").toLowerCase();

/** isLoopbackName tells whether `host` (without port) names this machine's loopback. */
export function isLoopbackName(host: string): boolean {
  const h = bare(host);
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * hostOf reads a Host header (`127.0.0.1:5000`, `[::1]:5000`) as a URL does, in lower case and
 * without a default port, or undefined when it is more than a host and port (a path, user info).
 */
export function hostOf(header: string): URL | undefined {
  try {
    const u = new URL(`http://${header}`);
    const given = header.toLowerCase();
    return u.host === given || `${u.host}:80` === given ? u : undefined;
  } catch {
    return undefined;
  }
}

/**
 * hostAllowed tells whether a request's `Host` names the emulator: a loopback name, the listen
 * address, a name given, or (listening on every interface) any IP address. The port is not
 * compared: a local TCP forwarder changes it, and a rebound name is refused by its name.
 */
export function hostAllowed(header: string | undefined, rule: HostRule): boolean {
  // HTTP/1.0 without Host: no browser sends that
  if (header === undefined) return true;
  const name = hostOf(header)?.hostname;
  if (name === undefined) return false;
  const h = bare(name);
  if (isLoopbackName(h) || h === bare(rule.listen)) return true;
  if (rule.allowed.some((a) => bare(a) === h)) return true;
  const wildcard = rule.listen === "0.0.0.0" || rule.listen === "::";
  return wildcard && isIP(h) !== 0;
}

/** originAllowed tells whether a request's `Origin` (sent by browsers) is absent or a loopback page. */
export function originAllowed(header: string | undefined): boolean {
  if (header === undefined) return true;
  try {
    const u = new URL(header);
    return (u.protocol === "http:" || u.protocol === "https:") && isLoopbackName(u.hostname);
  } catch {
    // "null" (a sandboxed frame, a file: page) and anything else
    return false;
  }
}

/** isJson tells whether a Content-Type is `application/json` (parameters such as charset aside). */
export function isJson(contentType: string | undefined): boolean {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() === "application/json";
}

const refuse = (status: number, message: string): Reply =>
  jsonReply(
    status,
    { error: { code: status, title: status === 403 ? "Forbidden" : "Unsupported Media Type", message } },
    { Connection: "close" },
  );

/**
 * guard answers a request that must not reach the emulator (403), or gives undefined. `host` and
 * `origin` are the request's headers.
 */
export function guard(
  host: string | undefined,
  origin: string | undefined,
  rule: HostRule,
): Reply | undefined {
  if (!hostAllowed(host, rule)) {
    return refuse(
      403,
      "the Host header does not name this emulator (a DNS rebinding page?); use http://127.0.0.1:PORT, or start it with --allow-host NAME",
    );
  }
  if (!originAllowed(origin)) {
    return refuse(
      403,
      "requests from web pages of other origins are refused; the emulator takes loopback origins only",
    );
  }
  return undefined;
}

/** notJson is the knob control's answer to a change that is not `Content-Type: application/json` (415). */
export function notJson(): Reply {
  return refuse(
    415,
    "send the change with Content-Type: application/json, e.g. curl -H 'Content-Type: application/json' -X PUT ... -d '{\"billing\":{\"status\":503}}'",
  );
}
