/**
 * What a `pulumi preview` costs: every step priced from its old and new inputs with the rate card, per
 * month — creates, updates, replacements, deletions, and unchanged resources for the stack's total.
 */
import Big from "big.js";
import { centsOf, type Price, priceMonthly } from "../pricing/price";
import type { RateCard } from "../pricing/rate-card";
import { type DigestState, type DigestStep, type PreviewDigest, typeOfUrn } from "./digest";

/** A priced resource of the preview. */
export interface CostedResource {
  urn: string;
  type: string;
  /** The logical operation: create, update, replace, delete, same (also import, refresh). */
  op: string;
  /** Per month, to the cent; 0 before a create and after a delete. */
  monthlyBefore: number;
  monthlyAfter: number;
  monthlyDelta: number;
  /** How it was priced, in words. */
  pricedBy: string;
}

/** A resource the rate card cannot price, and why: never counted as 0. */
export interface UnpricedResource {
  urn: string;
  type: string;
  op: string;
  reason: string;
}

/** The priced preview. */
export interface PreviewCost {
  currency: string | null;
  totals: { monthlyBefore: number; monthlyAfter: number; monthlyDelta: number };
  resources: CostedResource[];
  unpriced: UnpricedResource[];
  /** Steps not priced by nature: components, the stack, providers, reads and discards. */
  ignored: number;
}

/** Operations whose resource exists before the change and after it, unchanged. */
const UNCHANGED = new Set(["same", "refresh", "import"]);
/** Operations that say nothing of the stack's bill: a read of an external resource, a discard from state. */
const NOT_MANAGED = new Set([
  "read",
  "read-replacement",
  "discard",
  "discard-replaced",
  "remove-pending-replace",
]);

/** The logical change of one URN, its steps folded (a replacement can be one step or three). */
interface Change {
  urn: string;
  op: string;
  old?: DigestState | undefined;
  next?: DigestState | undefined;
}

/** foldSteps groups steps by URN, in first-seen order, folding replacement steps into one `replace`. */
export function foldSteps(steps: readonly DigestStep[]): Change[] {
  const byUrn = new Map<string, DigestStep[]>();
  for (const s of steps) {
    const list = byUrn.get(s.urn);
    if (list) list.push(s);
    else byUrn.set(s.urn, [s]);
  }
  const out: Change[] = [];
  for (const [urn, list] of byUrn) {
    const find = (op: string) => list.find((s) => s.op === op);
    const replace = find("replace");
    const created = find("create-replacement");
    const deleted = find("delete-replaced");
    if (replace || created || deleted) {
      out.push({
        urn,
        op: "replace",
        old: replace?.oldState ?? deleted?.oldState ?? created?.oldState,
        next: replace?.newState ?? created?.newState,
      });
      continue;
    }
    // with --refresh a refresh step comes first and the change after it: the last step says what happens
    const last = list.filter((s) => s.op !== "refresh").pop() ?? list[list.length - 1]!;
    out.push({ urn, op: last.op, old: last.oldState, next: last.newState });
  }
  return out;
}

const plain = (x: Record<string, unknown> | undefined) => x ?? {};

/**
 * priceDigest prices every step of a preview digest with the rate card.
 *
 * @example
 * const cost = priceDigest(parseDigest(text), parseRateCard(card));
 * cost.totals.monthlyDelta; // 87.6
 */
export function priceDigest(digest: PreviewDigest, card: RateCard): PreviewCost {
  const resources: CostedResource[] = [];
  const unpriced: UnpricedResource[] = [];
  let ignored = 0;
  let before = new Big(0);
  let after = new Big(0);
  for (const c of foldSteps(digest.steps)) {
    const state = c.next ?? c.old;
    const type = state?.type ?? typeOfUrn(c.urn);
    if (
      state?.custom === false ||
      type.startsWith("pulumi:providers:") ||
      type === "pulumi:pulumi:Stack" ||
      NOT_MANAGED.has(c.op)
    ) {
      ignored++;
      continue;
    }
    // before: the old state's inputs over its outputs; after: the new inputs, over the old outputs where
    // the new inputs leave a value to the provider (the preview has no new outputs)
    const oldInputs = { ...plain(c.old?.outputs), ...plain(c.old?.inputs) };
    const newInputs = { ...(c.op === "create" ? {} : plain(c.old?.outputs)), ...plain(c.next?.inputs) };
    let b: Price | undefined;
    let a: Price | undefined;
    if (c.op === "create") a = priceMonthly(type, newInputs, card);
    else if (c.op === "delete") b = priceMonthly(type, oldInputs, card);
    else if (UNCHANGED.has(c.op)) {
      b = priceMonthly(type, c.old ? oldInputs : newInputs, card);
      a = b;
    } else if (c.op === "update" || c.op === "replace") {
      b = priceMonthly(type, oldInputs, card);
      a = priceMonthly(type, newInputs, card);
    } else {
      unpriced.push({
        urn: c.urn,
        type,
        op: c.op,
        reason: `the step operation ${c.op} is not one costgate prices`,
      });
      continue;
    }
    const bad = [b, a].find((p) => p?.kind === "unpriced");
    if (bad && bad.kind === "unpriced") {
      const side =
        c.op === "update" || c.op === "replace" ? (b?.kind === "unpriced" ? "before: " : "after: ") : "";
      unpriced.push({ urn: c.urn, type, op: c.op, reason: `${side}${bad.reason}` });
      continue;
    }
    const mb = b?.kind === "priced" ? centsOf(b.monthly) : 0;
    const ma = a?.kind === "priced" ? centsOf(a.monthly) : 0;
    before = before.plus(mb);
    after = after.plus(ma);
    const words = [b, a]
      .filter((p): p is Extract<Price, { kind: "priced" }> => p?.kind === "priced")
      .map((p) => p.pricedBy);
    const pricedBy =
      words.length === 2 && words[0] !== words[1]
        ? `before ${words[0]}; after ${words[1]}`
        : (words[0] ?? "");
    resources.push({
      urn: c.urn,
      type,
      op: c.op,
      monthlyBefore: mb,
      monthlyAfter: ma,
      monthlyDelta: Number(new Big(ma).minus(mb).toFixed(2)),
      pricedBy,
    });
  }
  return {
    currency: card.currency ?? null,
    totals: {
      monthlyBefore: Number(before.toFixed(2)),
      monthlyAfter: Number(after.toFixed(2)),
      monthlyDelta: Number(after.minus(before).toFixed(2)),
    },
    resources,
    unpriced,
    ignored,
  };
}
