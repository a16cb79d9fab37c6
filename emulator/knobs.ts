/**
 * Fault-injection and representation knobs, mutable at run time from tests:
 * `emu.knobs.billing.status = 503`, `emu.knobs.identity.failTimes = 2`, ...
 */

import { z } from "zod";
import type { Assert, Exact } from "../provider/exact";

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

/** BillingKnobs shape the billing endpoint's answers (docs/API.md#balance, docs/API.md#consumption leave types open). */
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

/** The path of the emulator's knob control: GET shows the knobs, PUT changes some, DELETE resets them. */
export const KNOBS_PATH = "/_emulator/knobs";

/** A knob in a change: absent leaves it, `null` removes it (a representation knob goes back to its default). */
const knob = <T extends z.ZodType>(t: T) => t.nullable().optional();

const faultFields = {
  status: knob(z.number().int().min(100).max(599)),
  htmlError: knob(z.boolean()),
  resetConnection: knob(z.boolean()),
  retryAfter: knob(z.number().min(0).max(86_400)),
  latencyMs: knob(z.number().min(0).max(600_000)),
  failTimes: knob(z.number().int().min(1)),
};

/**
 * KnobsPatchSchema is a change of knobs as JSON, e.g. `{"billing": {"status": 503, "failTimes": 2}}`:
 * the named knobs are set, `null` removes one, the others stay. Unknown names are refused.
 * @internal
 */
export const KnobsPatchSchema = z.strictObject({
  billing: z
    .strictObject({
      ...faultFields,
      graphqlErrors: knob(z.array(z.string()).min(1)),
      amountFormat: knob(z.enum(["number", "string"])),
      dayFormat: knob(z.enum(["date", "timestamp"])),
      shuffle: knob(z.boolean()),
      nullBonuses: knob(z.boolean()),
    })
    .optional(),
  identity: z.strictObject({ ...faultFields, omitSubjectToken: knob(z.boolean()) }).optional(),
});

/** KnobPatch<T>: each knob of T absent (left as it is), a value (set) or `null` (removed). */
export type KnobPatch<T> = { [K in keyof T]?: T[K] | null };

/** A change of knobs: `{ billing: { status: 503, failTimes: 2 }, identity: { latencyMs: null } }`. */
export interface KnobsPatch {
  billing?: KnobPatch<BillingKnobs>;
  identity?: KnobPatch<IdentityKnobs>;
}

type _SamePatch = Assert<Exact<KnobsPatch, z.infer<typeof KnobsPatchSchema>>>;

/**
 * applyKnobs validates `patch` and applies it to `knobs` in place; throws a RangeError naming the
 * first bad field (`billing.status: ...`) and changes nothing then.
 *
 * @example applyKnobs(emu.knobs, { billing: { status: 503, retryAfter: 1, failTimes: 2 } });
 */
export function applyKnobs(knobs: Knobs, patch: unknown): Knobs {
  const parsed = KnobsPatchSchema.safeParse(patch);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "knobs";
    throw new RangeError(`${where}: ${issue?.message ?? "invalid"}`);
  }
  const defaults = defaultKnobs();
  for (const key of ["billing", "identity"] as const) {
    const change = parsed.data[key];
    if (!change) continue;
    const target = knobs[key] as unknown as Record<string, unknown>;
    const fallback = defaults[key] as unknown as Record<string, unknown>;
    for (const [name, value] of Object.entries(change)) {
      if (value === undefined) continue;
      if (value !== null) target[name] = value;
      else if (name in fallback) target[name] = fallback[name];
      else delete target[name];
    }
  }
  return knobs;
}
