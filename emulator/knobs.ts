/**
 * Fault-injection and representation knobs, mutable at run time from tests:
 * `emu.knobs.billing.status = 503`, `emu.knobs.identity.failTimes = 2`, ...
 */

/** FaultKnobs are the faults both endpoints can inject. */
export interface FaultKnobs {
  /** Answer every request with this HTTP status (an error body in the endpoint's style). */
  status?: number;
  /** Answer with an HTML error page like nginx's (502 unless `status` is set). */
  htmlError?: boolean;
  /** Destroy the socket instead of answering. */
  resetConnection?: boolean;
  /** `Retry-After` seconds sent with an injected status (e.g. 429, 503). */
  retryAfter?: number;
  /** Delay every response by this many milliseconds (not counted as a fault). */
  latencyMs?: number;
  /**
   * Fault only the next N requests, then clear the fault knobs (status, htmlError, resetConnection,
   * retryAfter, graphqlErrors, omitSubjectToken) and succeed. Unset: fault every request.
   */
  failTimes?: number;
}

/** BillingKnobs shape the billing endpoint's answers (spec §2.5, §2.6 leave types open). */
export interface BillingKnobs extends FaultKnobs {
  /** Answer 200 with `{"errors":[{"message"}...],"data":null}`. */
  graphqlErrors?: string[];
  /** Amounts as JSON numbers (1312.4) or numeric strings ("1312.40"). */
  amountFormat: "number" | "string";
  /** `day` as `YYYY-MM-DD` or `YYYY-MM-DDT00:00:00.000Z`. */
  dayFormat: "date" | "timestamp";
  /** Items in a shuffled order instead of date order. */
  shuffle: boolean;
  /** `bonuses` null, and `totalBonuses` null on days without bonuses. */
  nullBonuses: boolean;
}

/** IdentityKnobs shape the identity endpoint's answers. */
export interface IdentityKnobs extends FaultKnobs {
  /** Issue tokens without the `X-Subject-Token` header (counted as a fault for `failTimes`). */
  omitSubjectToken?: boolean;
}

/** Knobs are the emulator's run-time switches. */
export interface Knobs {
  billing: BillingKnobs;
  identity: IdentityKnobs;
}

/** defaultKnobs returns healthy knobs: numbers, dates, date order, bonuses present. */
export function defaultKnobs(): Knobs {
  return {
    billing: { amountFormat: "number", dayFormat: "date", shuffle: false, nullBonuses: false },
    identity: {},
  };
}

/** The fault an endpoint should inject into one request, if any. */
export type Fault =
  | { kind: "reset" }
  | { kind: "html"; status: number; retryAfter?: number }
  | { kind: "status"; status: number; retryAfter?: number };

function clearFaults(k: BillingKnobs | IdentityKnobs): void {
  const all = k as Partial<BillingKnobs & IdentityKnobs>;
  delete all.status;
  delete all.htmlError;
  delete all.resetConnection;
  delete all.retryAfter;
  delete all.graphqlErrors;
  delete all.omitSubjectToken;
  delete all.failTimes;
}

/**
 * consume records that a fault is applied to one request: with `failTimes` set it counts down and
 * clears the faults after the last one. Returns false when `failTimes` is already used up.
 */
export function consume(k: BillingKnobs | IdentityKnobs): boolean {
  if (k.failTimes === undefined) return true;
  if (k.failTimes <= 0) {
    clearFaults(k);
    return false;
  }
  k.failTimes -= 1;
  // latency and representation knobs stay; only the faults go
  if (k.failTimes === 0) clearFaults(k);
  return true;
}

/**
 * pendingFault picks the transport-level fault for a request (reset > html > status), consuming
 * one `failTimes`; undefined when the request should go on. (`graphqlErrors` and
 * `omitSubjectToken` are applied, and consumed, where the answer is built.)
 */
export function pendingFault(k: BillingKnobs | IdentityKnobs): Fault | undefined {
  const fault: Fault | undefined = k.resetConnection
    ? { kind: "reset" }
    : k.htmlError
      ? withRetry<Fault>({ kind: "html", status: k.status ?? 502 }, k.retryAfter)
      : k.status !== undefined
        ? withRetry<Fault>({ kind: "status", status: k.status }, k.retryAfter)
        : undefined;
  if (!fault) return undefined;
  return consume(k) ? fault : undefined;
}

function withRetry<T extends Fault>(f: T, retryAfter: number | undefined): T {
  if (retryAfter !== undefined && f.kind !== "reset") f.retryAfter = retryAfter;
  return f;
}
