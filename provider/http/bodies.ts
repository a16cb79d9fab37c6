/**
 * Reading what came back, for callers' messages: JSON or not, what a body without a message looks
 * like, the message of a common error shape, what to do about a status, and URLs fit to show.
 */
import { endpointText } from "../text";
import type { HttpResponse } from "./types";

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
  // the content type is the server's text: shown short and clean
  const type = endpointText(res.headers["content-type"] ?? "no content type", [], 80);
  if (res.text.length === 0) return "an empty body";
  if (/^\s*</.test(res.text) || type.includes("html")) return `an HTML page (${type})`;
  if (parseJson(res.text) !== undefined)
    return `a JSON body without an error message (${res.text.length} bytes)`;
  return `a non-JSON body (${type}, ${res.text.length} bytes)`;
}

/**
 * errorMessageOf finds the message of an error body of a common shape — `{error: {message}}`
 * (Keystone's), `{error: "..."}`, `{message}`, `{detail}` or `{title}` — first line only; else
 * undefined. The text is the server's: cleaned and bounded ({@link endpointText}), withheld when it echoes
 * a credential of the run.
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
    if (typeof c === "string" && c.trim() !== "") return endpointText((c.split("\n")[0] ?? c).trim());
  }
  return undefined;
}

/**
 * statusHint is what to do about a status any endpoint may answer: a 3xx is not followed (where it
 * points is shown without query or user info), a 429 or 5xx is worth trying later (with what its
 * Retry-After asked for); through a proxy, a 403 or 5xx may be the proxy's. `who` names the endpoint
 * ("Keystone"); "" for other statuses.
 */
export function statusHint(res: HttpResponse, who: string): string {
  const via = res.proxy ? ` (through the proxy ${res.proxy.shown} from ${res.proxy.from})` : "";
  if (res.status === 429 || res.status >= 500) {
    const wait =
      res.retryAfterMs === undefined ? "" : ` (it asks to wait ${Math.ceil(res.retryAfterMs / 1000)} s)`;
    return `${who} or a proxy in front of it failed${via}; try again later${wait}`;
  }
  if (res.proxy && (res.status === 403 || res.status === 407)) {
    return `the answer may be the proxy's: check its rules for this host${via}, or add the host to NO_PROXY`;
  }
  if (res.status < 300 || res.status > 399) return "";
  const location = res.headers["location"];
  let where = "";
  if (location) {
    try {
      where = ` (Location: ${endpointText(redactUrl(new URL(location, res.info.url)), [], 200)})`;
    } catch {
      // an unreadable Location: not shown
    }
  }
  return `costgate does not follow redirects; use the address it points to${where}`;
}
