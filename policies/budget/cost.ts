/**
 * The cost of the change: an optional rate card prices the OpenStack resources a preview adds, so
 * runway and month-end forecast can be computed before and after it. No anchor does this for
 * OpenStack. The analyzer protocol shows the planned state only, so:
 * - a resource is "added" when its computed outputs are not known yet (a create during preview);
 * - a resource that exists already is taken to be in the spend trend;
 * - deletions and in-place changes are not visible to a stack policy and are not priced.
 */
import type { PolicyResource } from "@pulumi/policy";

/** Prices, in the billing currency. */
export interface RateCard {
  /** Per hour, by flavor name (`flavorName` of an instance). */
  flavors?: Record<string, number>;
  /** Per GB-month of block storage. */
  volumeGbMonth?: number;
  /** Per GB-month by volume type, overriding volumeGbMonth. */
  volumeTypes?: Record<string, number>;
  /** Per hour of a floating IP. */
  floatingIpHour?: number;
}

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

const INSTANCE = "openstack:compute/instance:Instance";
const VOLUME = "openstack:blockstorage/volume:Volume";
const FLOATING_IP = "openstack:networking/floatingIp:FloatingIp";

/** Outputs that only the provider fills in: unknown or absent while a resource is being created. */
const COMPUTED: Record<string, string[]> = {
  [INSTANCE]: ["accessIpV4", "allMetadata", "allTags", "created"],
  [VOLUME]: ["attachments"],
  [FLOATING_IP]: ["address", "allTags"],
};

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
  const keys = COMPUTED[r.type];
  if (!keys) return false;
  return keys.every((k) => {
    const v = read(r.props, k);
    return v === undefined || v === null;
  });
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** priceResource prices one resource per day, or says why it cannot. */
export function priceResource(
  r: Pick<PolicyResource, "type" | "props">,
  card: RateCard,
): { perDay: number; what: string } | { reason: string } | undefined {
  if (r.type === INSTANCE) {
    const flavor = read(r.props, "flavorName");
    if (typeof flavor !== "string") return { reason: "the instance has no known flavorName" };
    const hourly = card.flavors?.[flavor];
    if (hourly === undefined) return { reason: `the rate card has no price for flavor ${flavor}` };
    return { perDay: hourly * 24, what: `instance ${flavor}` };
  }
  if (r.type === VOLUME) {
    const size = read(r.props, "size");
    if (typeof size !== "number") return { reason: "the volume has no known size" };
    const type = read(r.props, "volumeType");
    const perGbMonth =
      (typeof type === "string" ? card.volumeTypes?.[type] : undefined) ?? card.volumeGbMonth;
    if (perGbMonth === undefined) return { reason: "the rate card has no volume price (volumeGbMonth)" };
    return { perDay: (size * perGbMonth * 12) / 365, what: `volume ${size} GB` };
  }
  if (r.type === FLOATING_IP) {
    if (card.floatingIpHour === undefined) return { reason: "the rate card has no floatingIpHour" };
    return { perDay: card.floatingIpHour * 24, what: "floating IP" };
  }
  return undefined;
}

/** priceChange sums the daily cost of the priced resources a preview creates. */
export function priceChange(resources: readonly PolicyResource[], card: RateCard | undefined): ChangeCost {
  const out: ChangeCost = { addedPerDay: 0, added: [], unpriced: [] };
  if (!card) return out;
  let cents = 0;
  for (const r of resources) {
    if (!(r.type in COMPUTED) || !isBeingCreated(r)) continue;
    const price = priceResource(r, card);
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
