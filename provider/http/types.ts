/**
 * A request and its response, as {@link send} takes and returns them.
 */
import type { RequestInfo, Service } from "../errors";
import type { TransportOptions } from "./options";

/** One request. `json` is sent as the body with `Content-Type: application/json`. */
export interface HttpRequest {
  service: Service;
  method: "GET" | "HEAD" | "POST" | "DELETE";
  url: string;
  headers?: Record<string, string>;
  json?: unknown;
  /**
   * Credentials the request carries besides its secret headers and the `password`/`secret` fields of
   * `json` (which are known already): no text that comes back is shown with one.
   */
  secrets?: string[];
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
  /** Header names the response carried more than once (their values are joined with ", " in `headers`). */
  repeatedHeaders?: string[];
  /** True when the answer carries the costgate emulator's marker header (`X-Costgate-Emulator`). */
  emulator?: boolean;
  /** The proxy it came through, if any (without credentials). */
  proxy?: { shown: string; from: string };
}
