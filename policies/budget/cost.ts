/**
 * The cost of the change: an optional rate card prices the OpenStack resources a preview adds, so
 * runway and month-end forecast can be computed before and after it. No anchor does this for
 * OpenStack. The analyzer protocol shows the planned state only, so:
 * - a resource is "added" when its computed outputs are not known yet (a create during preview);
 * - a resource that exists already is taken to be in the spend trend;
 * - deletions and in-place changes are not visible to a stack policy and are not priced.
 */
import type { PolicyResource } from "@pulumi/policy";
import { FLOATING_IP, INSTANCE, Pricer, type RateCard, UNKNOWN_TEXT, VOLUME } from "costgate/budget";

/** The rate card (costgate's one pricing module; `costgate cost` uses the same). */
export type { RateCard };

/** A priced resource. */
export interface PricedResource {
  urn: string;
  type: string;
  name: string;
  perDay: number;
  what: string;
}

/** The priced change. */
export interface ChangeCost {
  /** Added cost per day of the resources being created. */
  addedPerDay: number;
  added: PricedResource[];
  /** Resources of a priced type the card has no price for. */
  unpriced: { urn: string; reason: string }[];
}

/** Outputs that only the provider fills in: unknown or absent while a resource is being created. */
const COMPUTED = new Map<string, string[]>([
  [INSTANCE, ["accessIpV4", "allMetadata", "allTags", "created"]],
  [VOLUME, ["attachments"]],
  [FLOATING_IP, ["address", "allTags"]],
]);

function isUnknownError(e: unknown): boolean {
  return (e as { constructor?: { name?: string } })?.constructor?.name === "UnknownValueError";
}

/** read returns a property, or undefined when it is unknown during preview. */
function read(props: Record<string, unknown>, key: string): unknown {
  try {
    return props[key];
  } catch (e) {
    if (isUnknownError(e)) return undefined;
    throw e;
  }
}

/** isBeingCreated tells whether none of a resource's computed outputs is known yet. */
export function isBeingCreated(r: Pick<PolicyResource, "type" | "props">): boolean {
  const keys = COMPUTED.get(r.type);
  if (!keys) return false;
  return keys.every((k) => {
    const v = read(r.props, k);
    return v === undefined || v === null;
  });
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The preview-style inputs of a resource: unknown values as Pulumi's unknown text, as `pulumi preview --json` writes them. */
function inputsOf(props: Record<string, unknown>): Record<string, unknown> {
  // no prototype: a property named __proto__ stays a property
  const out: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(props)) {
    const v = read(props, key);
    out[key] = v === undefined ? UNKNOWN_TEXT : v;
  }
  return out;
}

const WHAT = new Map<string, (inputs: Record<string, unknown>) => string>([
  [INSTANCE, (i) => `instance ${String(i["flavorName"] ?? i["flavorId"])}`],
  [VOLUME, (i) => `volume ${String(i["size"])} GB`],
  [FLOATING_IP, () => "floating IP"],
]);

/**
 * priceResource prices one resource per day (its monthly price × 12 / 365, from costgate's pricing
 * module, as `costgate cost` prices it), or says why it cannot; undefined for a type the pack does not
 * price (neither an OpenStack instance, volume or floating IP nor a type the card names). `pricer`
 * remembers the prices of the card's distinct inputs (one per run and card in the pack).
 */
export function priceResource(
  r: Pick<PolicyResource, "type" | "props">,
  card: RateCard,
  pricer: Pricer = new Pricer(card),
): { perDay: number; what: string } | { reason: string } | undefined {
  if (!WHAT.has(r.type) && !(card.types && Object.hasOwn(card.types, r.type))) return undefined;
  const inputs = inputsOf(r.props);
  const price = pricer.price(r.type, inputs);
  if (price.kind === "unpriced") return { reason: price.reason };
  return { perDay: price.perDay, what: WHAT.get(r.type)?.(inputs) ?? r.type };
}

/**
 * priceChange sums the daily cost of the priced resources a preview creates; `pricer` (of `card`) may
 * be shared by the policies of a run that price with the same card.
 */
export function priceChange(
  resources: readonly PolicyResource[],
  card: RateCard | undefined,
  pricer?: Pricer,
): ChangeCost {
  const out: ChangeCost = { addedPerDay: 0, added: [], unpriced: [] };
  if (!card) return out;
  const prices = pricer ?? new Pricer(card);
  let cents = 0;
  for (const r of resources) {
    if (!COMPUTED.has(r.type) || !isBeingCreated(r)) continue;
    const price = priceResource(r, card, prices);
    if (!price) continue;
    if ("reason" in price) {
      out.unpriced.push({ urn: r.urn, reason: price.reason });
      continue;
    }
    const perDay = round2(price.perDay);
    cents += Math.round(perDay * 100);
    out.added.push({ urn: r.urn, type: r.type, name: r.name, perDay, what: price.what });
  }
  out.addedPerDay = cents / 100;
  return out;
}
