/**
 * The emulator's HTTP plumbing: reading bodies, recording requests, writing responses.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** RecordedRequest is one request as the emulator received it, for tests to assert on. */
export interface RecordedRequest {
  method: string;
  /** The path without the query string, e.g. `/v3/auth/tokens`. */
  path: string;
  /** The query string without `?`, e.g. `nocatalog`; empty when none. */
  query: string;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body parsed as JSON, or undefined when empty or not JSON. */
  body: unknown;
  /** The body as UTF-8 text. */
  rawBody: string;
  /** When the request arrived (emulator clock), ISO 8601. */
  receivedAt: string;
}

/** The largest request body taken (1 MiB): a token request or a GraphQL query is a few hundred bytes. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** TOO_LARGE is what {@link readBody} gives for a body over its limit. */
export const TOO_LARGE = Symbol("too large");

/**
 * readBody reads the whole request body as UTF-8, or gives {@link TOO_LARGE} as soon as it (or its
 * Content-Length) passes `limit` bytes; the rest is then read and dropped, never kept.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers["content-length"]) > limit) {
      req.resume();
      resolve(TOO_LARGE);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      req.off("data", onData);
      req.resume();
      resolve(TOO_LARGE);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.once("error", reject);
  });
}

/** record turns a request and its body into a RecordedRequest. */
export function record(req: IncomingMessage, rawBody: string, now: Date): RecordedRequest {
  const url = new URL(req.url ?? "/", "http://emulator.invalid");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  let body: unknown;
  if (rawBody.length > 0) {
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
  }
  return {
    method: req.method ?? "GET",
    path: url.pathname,
    query: url.search.replace(/^\?/, ""),
    headers,
    body,
    rawBody,
    receivedAt: now.toISOString(),
  };
}

/** requestId is an OpenStack request id, `req-<uuid>`. */
export function requestId(): string {
  return `req-${randomUUID()}`;
}

/**
 * MARKER_HEADER is on every answer of the emulator, so a client can tell it is not talking to a real
 * cloud (costgate's command line says so on stderr).
 */
export const MARKER_HEADER = "X-Costgate-Emulator";
/** The value of {@link MARKER_HEADER}. */
export const MARKER_VALUE = "1";

/** Reply is a complete answer, written by writeReply; `reset` drops the connection instead. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
  reset?: boolean;
}

/** reply builds a Reply with a text body. */
export function reply(status: number, headers: Record<string, string>, body = ""): Reply {
  return { status, headers, body };
}

/** jsonReply builds a JSON Reply (`Content-Type: application/json` unless headers say otherwise). */
export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return reply(status, { "Content-Type": "application/json", ...headers }, JSON.stringify(value));
}

/** RESET is the Reply that destroys the socket. */
export const RESET: Reply = { status: 0, headers: {}, body: "", reset: true };

/**
 * writeReply sends a Reply. For HEAD the headers (Content-Length included) go without the body,
 * as Keystone answers HEAD.
 */
export function writeReply(req: IncomingMessage, res: ServerResponse, r: Reply): void {
  if (res.destroyed || res.writableEnded) return;
  if (r.reset) {
    req.socket.destroy();
    return;
  }
  const buf = Buffer.from(r.body, "utf8");
  res.writeHead(r.status, {
    ...r.headers,
    [MARKER_HEADER]: MARKER_VALUE,
    "Content-Length": String(buf.length),
  });
  res.end(req.method === "HEAD" ? undefined : buf);
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Request Entity Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Temporarily Unavailable",
  504: "Gateway Time-out",
};

/** reason is the HTTP reason phrase of a status (nginx's spelling). */
export function reason(status: number): string {
  return REASONS[status] ?? "Error";
}

/** nginxErrorPage is the HTML page nginx sends for an upstream error. */
export function nginxErrorPage(status: number): string {
  const title = `${status} ${reason(status)}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

/** nginxReply answers like nginx in front of a failed upstream. */
export function nginxReply(status: number, retryAfter?: number): Reply {
  const headers: Record<string, string> = { "Content-Type": "text/html", Server: "nginx" };
  if (retryAfter !== undefined) headers["Retry-After"] = String(retryAfter);
  return reply(status, headers, nginxErrorPage(status));
}
