/**
 * What a `pulumi preview` costs: every step priced from its old and new inputs with the rate card, per
 * month — creates, updates, replacements, deletions, and unchanged resources for the stack's total.
 */
import { type Price, Pricer } from "../pricing/price";
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
  // most URNs have one step: a list only where there are more
  const byUrn = new Map<string, DigestStep | DigestStep[]>();
  for (const s of steps) {
    const seen = byUrn.get(s.urn);
    if (seen === undefined) byUrn.set(s.urn, s);
    else if (Array.isArray(seen)) seen.push(s);
    else byUrn.set(s.urn, [seen, s]);
  }
  const out: Change[] = [];
  for (const [urn, entry] of byUrn) {
    if (!Array.isArray(entry)) {
      const op = entry.op === "create-replacement" || entry.op === "delete-replaced" ? "replace" : entry.op;
      out.push({
        urn,
        op,
        old: entry.oldState,
        next: op === "replace" && entry.op === "delete-replaced" ? undefined : entry.newState,
      });
      continue;
    }
    const list = entry;
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
  const pricer = new Pricer(card);
  let ignored = 0;
  // totals in whole cents: the sum of the rounded amounts each row shows
  let before = 0;
  let after = 0;
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
    const priceBefore = () => pricer.price(type, c.old?.inputs, c.old?.outputs);
    const priceAfter = () =>
      pricer.price(type, c.next?.inputs, c.op === "create" ? undefined : c.old?.outputs);
    let b: Price | undefined;
    let a: Price | undefined;
    if (c.op === "create") a = priceAfter();
    else if (c.op === "delete") b = priceBefore();
    else if (UNCHANGED.has(c.op)) {
      b = c.old ? priceBefore() : priceAfter();
      a = b;
    } else if (c.op === "update" || c.op === "replace") {
      b = priceBefore();
      a = priceAfter();
    } else {
      unpriced.push({
        urn: c.urn,
        type,
        op: c.op,
        reason: `the step operation ${c.op} is not one costgate prices`,
      });
      continue;
    }
    const bad = b?.kind === "unpriced" ? b : a?.kind === "unpriced" ? a : undefined;
    if (bad) {
      const side = c.op === "update" || c.op === "replace" ? (bad === b ? "before: " : "after: ") : "";
      unpriced.push({ urn: c.urn, type, op: c.op, reason: `${side}${bad.reason}` });
      continue;
    }
    // both sides priced (or absent) from here
    const pb = b?.kind === "priced" ? b : undefined;
    const pa = a?.kind === "priced" ? a : undefined;
    const bc = pb ? Math.round(pb.cents * 100) : 0;
    const ac = pa ? Math.round(pa.cents * 100) : 0;
    before += bc;
    after += ac;
    const pricedBy =
      pb && pa && pb.pricedBy !== pa.pricedBy
        ? `before ${pb.pricedBy}; after ${pa.pricedBy}`
        : (pb?.pricedBy ?? pa?.pricedBy ?? "");
    resources.push({
      urn: c.urn,
      type,
      op: c.op,
      monthlyBefore: bc / 100,
      monthlyAfter: ac / 100,
      monthlyDelta: (ac - bc) / 100,
      pricedBy,
    });
  }
  return {
    currency: card.currency ?? null,
    totals: { monthlyBefore: before / 100, monthlyAfter: after / 100, monthlyDelta: (after - before) / 100 },
    resources,
    unpriced,
    ignored,
  };
}
