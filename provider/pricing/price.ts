/**
 * One pricing module: a resource's monthly price from its type, its inputs and the rate card. `costgate
 * cost` (every step of a preview) and the policy pack (what a stack policy sees) both call `priceMonthly`,
 * so where both see the same resource they price it identically.
 */
import Big = require("big.js");

import { ownValue } from "../own";
import { HOURS_PER_MONTH, type Periodic, type RateCard } from "./rate-card";

/** How Pulumi writes a secret in `pulumi preview --json`: the value is never shown. */
export const SECRET_TEXT = "[secret]";
/** How Pulumi writes a value not known until apply (pulumi/pulumi `plugin.UnknownStringValue`). */
export const UNKNOWN_TEXT = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export const INSTANCE = "openstack:compute/instance:Instance";
export const VOLUME = "openstack:blockstorage/volume:Volume";
export const FLOATING_IP = "openstack:networking/floatingIp:FloatingIp";

/** A priced resource: per month (unrounded, and to the cent) and per day. */
export interface Priced {
  kind: "priced";
  /** Per month, as priced (not rounded). */
  monthly: number;
  /** Per month to the cent, half away from zero, in exact decimal arithmetic. */
  cents: number;
  /** Per day: the monthly price × 12 / 365 (an hourly price × 24). */
  perDay: number;
  /** How, in words. */
  pricedBy: string;
}

/** The outcome of pricing one resource. */
export type Price = Priced | { kind: "unpriced"; reason: string };

/** A price before it is rounded: exact decimals (big.js stays out of the public types). */
type Exact = { kind: "priced"; monthly: Big; pricedBy: string } | { kind: "unpriced"; reason: string };

/** Power states an instance costs nothing of its flavor in, unless the card says otherwise. */
const DEFAULT_POWER_STATES: Record<string, number> = { shelved_offloaded: 0 };

/** The most units (GB of a volume, units of a card's `property`) priced; beyond is not a real resource. */
export const MAX_PRICED_UNITS = 1e9;
/** The largest monthly price of one resource; beyond, the inputs or the card are wrong and it is unpriced. */
export const MAX_MONTHLY_PRICE = 1e12;

/** unitsWhy says why a count of units cannot price, or undefined when it can. */
function unitsWhy(key: string, v: unknown): string | undefined {
  if (typeof v !== "number") return `${key} is not a number`;
  if (!Number.isFinite(v) || v < 0) return `${key} is ${v}, not a number of 0 or more`;
  if (v > MAX_PRICED_UNITS) return `${key} ${v} is beyond ${MAX_PRICED_UNITS}, which costgate does not price`;
  return undefined;
}

/** A secret or unknown input: why it cannot price, or undefined when the value can be used. */
function unusable(key: string, v: unknown): string | undefined {
  if (v === SECRET_TEXT) return `${key} is a secret; secrets are never used as price inputs`;
  if (v === UNKNOWN_TEXT) return `${key} is not known until apply`;
  return undefined;
}

function perMonth(p: Periodic): { monthly: Big; words: string } {
  if (typeof p === "number")
    return { monthly: new Big(p).times(HOURS_PER_MONTH), words: `${p}/hour × ${HOURS_PER_MONTH} h` };
  if (p.month !== undefined) return { monthly: new Big(p.month), words: `${p.month}/month` };
  return {
    monthly: new Big(p.hour ?? 0).times(HOURS_PER_MONTH),
    words: `${p.hour}/hour × ${HOURS_PER_MONTH} h`,
  };
}

/**
 * priceMonthly prices one resource of `type` with `inputs` (a preview's inputs: secrets as "[secret]",
 * unknowns as Pulumi's unknown text). `types` in the card wins over the built-in OpenStack types.
 *
 * @example
 * priceMonthly("openstack:compute/instance:Instance", { flavorName: "m1.large" }, { flavors: { "m1.large": 0.12 } });
 * // { kind: "priced", monthly: 87.6, cents: 87.6, perDay: 2.88, pricedBy: "flavor m1.large: 0.12/hour × 730 h" }
 */
export function priceMonthly(type: string, inputs: Record<string, unknown>, card: RateCard): Price {
  const p = exactPrice(type, inputs, card);
  if (p.kind === "unpriced") return p;
  if (p.monthly.abs().gt(MAX_MONTHLY_PRICE))
    return {
      kind: "unpriced",
      reason: `its monthly price (${p.pricedBy}) is beyond ${MAX_MONTHLY_PRICE}; check the rate card and the resource's inputs`,
    };
  return {
    kind: "priced",
    monthly: p.monthly.toNumber(),
    cents: centsOf(p.monthly),
    perDay: perDayOf(p.monthly).toNumber(),
    pricedBy: p.pricedBy,
  };
}

function exactPrice(type: string, inputs: Record<string, unknown>, card: RateCard): Exact {
  const custom = ownValue(card.types, type);
  if (custom) {
    if (custom.property === undefined) {
      const p = perMonth(custom.month !== undefined ? { month: custom.month } : { hour: custom.hour ?? 0 });
      return { kind: "priced", monthly: p.monthly, pricedBy: `${type}: ${p.words}` };
    }
    const units = ownValue(inputs, custom.property);
    const why = unusable(custom.property, units);
    if (why) return { kind: "unpriced", reason: why };
    const badUnits = unitsWhy(custom.property, units);
    if (badUnits || typeof units !== "number")
      return { kind: "unpriced", reason: `${badUnits} (the card prices ${type} by it)` };
    const unit =
      custom.perUnitMonth !== undefined
        ? { monthly: new Big(custom.perUnitMonth), words: `${custom.perUnitMonth}/month` }
        : {
            monthly: new Big(custom.perUnitHour ?? 0).times(HOURS_PER_MONTH),
            words: `${custom.perUnitHour}/hour × ${HOURS_PER_MONTH} h`,
          };
    return {
      kind: "priced",
      monthly: unit.monthly.times(units),
      pricedBy: `${type}: ${custom.property} ${units} × ${unit.words}`,
    };
  }
  if (type === INSTANCE) return priceInstance(inputs, card);
  if (type === VOLUME) return priceVolume(inputs, card);
  if (type === FLOATING_IP) {
    if (card.floatingIpMonth !== undefined)
      return {
        kind: "priced",
        monthly: new Big(card.floatingIpMonth),
        pricedBy: `floating IP: ${card.floatingIpMonth}/month`,
      };
    if (card.floatingIpHour !== undefined) {
      const p = perMonth(card.floatingIpHour);
      return { kind: "priced", monthly: p.monthly, pricedBy: `floating IP: ${p.words}` };
    }
    return { kind: "unpriced", reason: "the rate card has no floatingIpHour or floatingIpMonth" };
  }
  return {
    kind: "unpriced",
    reason: `the rate card has no price for ${type} (name it under types, { month: 0 } if free)`,
  };
}

function priceInstance(inputs: Record<string, unknown>, card: RateCard): Exact {
  // the flavor by name, else by id; a secret or unknown one cannot price
  let flavor: string | undefined;
  let why: string | undefined;
  for (const key of ["flavorName", "flavorId"]) {
    const v = ownValue(inputs, key);
    if (v === undefined || v === null || v === "") continue;
    const bad = unusable(key, v);
    if (bad) {
      why ??= bad;
      continue;
    }
    if (typeof v === "string" && ownValue(card.flavors, v) !== undefined) {
      flavor = v;
      break;
    }
    why ??= `the rate card has no price for flavor ${String(v)}`;
  }
  const p = flavor === undefined ? undefined : ownValue(card.flavors, flavor);
  if (flavor === undefined || p === undefined)
    return { kind: "unpriced", reason: why ?? "the instance has no flavorName or flavorId" };
  const base = perMonth(p);
  const state = ownValue(inputs, "powerState");
  const share =
    typeof state === "string" && !unusable("powerState", state)
      ? (ownValue(card.powerStates, state) ?? ownValue(DEFAULT_POWER_STATES, state) ?? 1)
      : 1;
  const words = `flavor ${flavor}: ${base.words}${share !== 1 ? `, ${String(state)} × ${share}` : ""}`;
  return { kind: "priced", monthly: base.monthly.times(share), pricedBy: words };
}

function priceVolume(inputs: Record<string, unknown>, card: RateCard): Exact {
  const size = ownValue(inputs, "size");
  const why = unusable("size", size);
  if (why) return { kind: "unpriced", reason: why };
  if (size === undefined || size === null) return { kind: "unpriced", reason: "the volume has no size (GB)" };
  const badSize = unitsWhy("size", size);
  if (badSize || typeof size !== "number") return { kind: "unpriced", reason: `the volume's ${badSize}` };
  const type = ownValue(inputs, "volumeType");
  const typeWhy = unusable("volumeType", type);
  if (typeWhy && card.volumeTypes && Object.keys(card.volumeTypes).length > 0)
    return { kind: "unpriced", reason: typeWhy };
  const byType = typeof type === "string" && !typeWhy ? ownValue(card.volumeTypes, type) : undefined;
  const perGb = byType ?? card.volumeGbMonth;
  if (perGb === undefined)
    return {
      kind: "unpriced",
      reason:
        typeof type === "string" && !typeWhy
          ? `the rate card has no price for volume type ${type} (volumeTypes) and no volumeGbMonth`
          : "the rate card has no volume price (volumeGbMonth)",
    };
  return {
    kind: "priced",
    monthly: new Big(perGb).times(size),
    pricedBy: `volume ${size} GB × ${perGb}/GB-month${byType !== undefined ? ` (${String(type)})` : ""}`,
  };
}

/** cents rounds a Big to cents, half away from zero, as a number. */
function centsOf(x: Big): number {
  return Number(x.round(2, Big.roundHalfUp).toFixed(2));
}

/** perDayOf turns a monthly price into a daily one: × 12 / 365 (an hourly price × 24). */
function perDayOf(monthly: Big): Big {
  return monthly.times(12).div(365);
}

const LEAF = Symbol("price");

/**
 * memoKey is an input value as a key of the memo's Maps: distinct for every value priceMonthly tells
 * apart. A Map takes -0 for 0, and an object has no value identity, so both become strings in a space of
 * their own (starting with NUL), where a string that starts with NUL is moved too.
 */
function memoKey(v: unknown): unknown {
  if (typeof v === "object" && v !== null) return `\u0000o${JSON.stringify(v)}`;
  if (typeof v === "string" && v.startsWith("\u0000")) return `\u0000s${v}`;
  if (Object.is(v, -0)) return "\u0000-0";
  return v;
}

/**
 * Pricer prices resources with one card, remembering each distinct set of price inputs: a preview of
 * thousands of steps (or a stack of thousands of resources) repeats a few flavors and sizes, and the
 * decimal arithmetic runs once for each. `costgate cost` keeps one per command, the pack one per run
 * and card. Its prices are {@link priceMonthly}'s (a test holds them equal on arbitrary inputs).
 */
export class Pricer {
  private readonly memo = new Map<string, unknown>();
  private readonly keysOf = new Map<string, readonly string[]>();
  constructor(private readonly card: RateCard) {}

  /** The inputs a type's price depends on. */
  private keys(type: string): readonly string[] {
    let keys = this.keysOf.get(type);
    if (!keys) {
      const custom = ownValue(this.card.types, type);
      keys = custom
        ? custom.property === undefined
          ? []
          : [custom.property]
        : type === INSTANCE
          ? ["flavorName", "flavorId", "powerState"]
          : type === VOLUME
            ? ["size", "volumeType"]
            : [];
      this.keysOf.set(type, keys);
    }
    return keys;
  }

  /** price looks each input up in `first`, then in `second` (where the first leaves it out). */
  price(type: string, first: Record<string, unknown> | undefined, second?: Record<string, unknown>): Price {
    const keys = this.keys(type);
    const value = (k: string) => (first && Object.hasOwn(first, k) ? first[k] : ownValue(second, k));
    // a trie of Maps keyed by the inputs' values: no key string built per resource
    let node = this.memo.get(type) as Map<unknown, unknown> | undefined;
    if (!node) {
      node = new Map();
      this.memo.set(type, node);
    }
    for (const k of keys) {
      const v = value(k);
      const at = memoKey(v);
      let next = node.get(at) as Map<unknown, unknown> | undefined;
      if (!next) {
        next = new Map();
        node.set(at, next);
      }
      node = next;
    }
    let p = node.get(LEAF) as Price | undefined;
    if (!p) {
      // no prototype: an input named __proto__ (a card's `property`) stays an input
      const inputs: Record<string, unknown> = Object.create(null);
      for (const k of keys) inputs[k] = value(k);
      p = priceMonthly(type, inputs, this.card);
      node.set(LEAF, p);
    }
    return p;
  }
}
