/**
 * The retry policy: which outcomes are worth another attempt, how long to wait (full-jitter backoff,
 * or what `Retry-After` asks). Pure; {@link send} applies it.
 */
import type { ResolvedRetry } from "./options";

/** Statuses an idempotent request is tried again on. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

/**
 * Error codes meaning no answer came and the request may not even have arrived: retried for every
 * request. (ENOTFOUND, TLS errors and a proxy's refusal are not: trying again will not help.)
 */
const NO_RESPONSE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

/** The code of an attempt ended because the body passed `maxResponseBytes`. */
export const TOO_LARGE = "COSTGATE_RESPONSE_TOO_LARGE";

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

/** @internal retryReason names why an attempt's outcome is worth another try, or undefined. */
export function retryReason(
  outcome:
    | { status: number }
    | {
        failure: {
          responded: boolean;
          code?: string | undefined;
          timeout?: string | undefined;
          final?: boolean;
        };
      },
  idempotent: boolean,
): string | undefined {
  if ("status" in outcome) {
    return idempotent && RETRY_STATUSES.has(outcome.status) ? `HTTP ${outcome.status}` : undefined;
  }
  const f = outcome.failure;
  // the same body would come again; a cancelled request or a proxy's refusal is final
  if (f.code === TOO_LARGE || f.final) return undefined;
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
