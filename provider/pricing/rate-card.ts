/**
 * The rate card: what each priced resource costs, per hour or per month, in the billing currency. One file
 * (JSON or YAML) shared by `costgate cost`, the policy pack's `rateCard` and the config file's `rateCard`.
 */
import type { z } from "zod";
import { type DataFileLimit, readDataDocument } from "../data-file";
import { ConfigError, isZodWording } from "../errors";
import type { Assert, Exact } from "../exact";
import { perProcess } from "../once";
import { zod } from "../zod";

/** Hours in a month: 730, the convention of Infracost and the clouds' price lists (8,760 / 12). */
export const HOURS_PER_MONTH = 730;

/** A price per hour, or per hour / per month. */
export type Periodic = number | { hour?: number; month?: number };

/** A price the card gives for any resource type: flat, or per unit of one of its inputs. */
export interface TypePrice {
  /** Flat, per hour of the resource's life. */
  hour?: number;
  /** Flat, per month. */
  month?: number;
  /** The input that counts units (e.g. `size` in GB); with perUnitHour or perUnitMonth. */
  property?: string;
  /** Per unit of `property`, per hour. */
  perUnitHour?: number;
  /** Per unit of `property`, per month (e.g. per GB-month). */
  perUnitMonth?: number;
}

/**
 * RateCard prices the resources of a plan. Instances by flavor (name or id; a number is per hour),
 * volumes per GB-month (by volume type, else `volumeGbMonth`), floating IPs per hour or month, and any
 * other type under `types`. A type the card does not name is never priced as 0: it is reported unpriced.
 *
 * @example
 * const card: RateCard = {
 *   currency: "EUR",
 *   flavors: { "m1.small": 0.03, "m1.large": { month: 87.6 } },
 *   volumeGbMonth: 0.1, volumeTypes: { ssd: 0.2 }, floatingIpHour: 0.005,
 *   types: { "openstack:networking/network:Network": { month: 0 } },
 * };
 */
export interface RateCard {
  /** JSON Schema reference for editors; ignored. */
  $schema?: string;
  /** The currency of every price (`EUR`, `RUB`, `₽`). */
  currency?: string;
  /** Instance price by flavor name or flavor id: a number per hour, or `{ hour }` / `{ month }`. */
  flavors?: Record<string, Periodic>;
  /**
   * The share of the flavor price charged in a power state (`powerState` input): 0–1. Default: 1, except
   * `shelved_offloaded` 0 (an offloaded instance holds no compute).
   */
  powerStates?: Record<string, number>;
  /** Block storage per GB-month, unless `volumeTypes` names the volume's type. */
  volumeGbMonth?: number;
  /** Block storage per GB-month by volume type. */
  volumeTypes?: Record<string, number>;
  /** A floating IP per hour. */
  floatingIpHour?: number;
  /** A floating IP per month (wins over floatingIpHour). */
  floatingIpMonth?: number;
  /** Any resource type (`openstack:networking/network:Network`): flat or per unit of an input; `{ month: 0 }` for free. */
  types?: Record<string, TypePrice>;
}

const price = () =>
  zod()
    .number({ error: "must be a price (a number of 0 or more)" })
    .finite("must be a finite number")
    .nonnegative("must be 0 or more");

const periodic = () => {
  const z = zod();
  return z.union(
    [
      price(),
      z
        .object({ hour: price().optional(), month: price().optional() })
        .strict()
        .refine((p) => (p.hour === undefined) !== (p.month === undefined), "give hour or month, one of them"),
    ],
    { error: "must be a price per hour, or { hour } or { month }" },
  );
};

/** A currency code or sign (`EUR`, `₽`): the rate card's and the config file's. @internal */
export function currencySchema() {
  return zod()
    .string({ error: "must be a currency code or sign, e.g. EUR" })
    .trim()
    .min(1, "is empty; e.g. EUR")
    .max(8, "is too long for a currency code or sign; e.g. EUR");
}

/** @internal */
function buildRateCardSchema() {
  const z = zod();
  return z
    .object({
      $schema: z.string().optional(),
      currency: currencySchema().optional(),
      flavors: z.record(z.string(), periodic()).optional(),
      powerStates: z
        .record(
          z.string(),
          z
            .number({ error: "must be a share from 0 to 1" })
            .min(0, "must be 0 or more")
            .max(1, "must be at most 1"),
        )
        .optional(),
      volumeGbMonth: price().optional(),
      volumeTypes: z.record(z.string(), price()).optional(),
      floatingIpHour: price().optional(),
      floatingIpMonth: price().optional(),
      types: z
        .record(
          z.string(),
          z
            .object({
              hour: price().optional(),
              month: price().optional(),
              property: z.string().min(1, "is empty; name the input that counts units, e.g. size").optional(),
              perUnitHour: price().optional(),
              perUnitMonth: price().optional(),
            })
            .strict()
            .refine(
              (t) =>
                [t.hour, t.month, t.perUnitHour, t.perUnitMonth].filter((v) => v !== undefined).length === 1,
              "give one price: hour, month, perUnitHour or perUnitMonth",
            )
            .refine(
              (t) =>
                (t.property !== undefined) === (t.perUnitHour !== undefined || t.perUnitMonth !== undefined),
              "perUnitHour and perUnitMonth need property (the input that counts units), and property needs one of them",
            ),
        )
        .optional(),
    })
    .strict();
}

/** rateCardSchema is the schema built once per process ({@link perProcess}); zod types stay out of the public declarations. @internal */
export function rateCardSchema() {
  return perProcess(buildRateCardSchema);
}

const isPrice = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0;
const isShare = (v: unknown) => typeof v === "number" && v >= 0 && v <= 1;
const TYPE_PRICE_KEYS = new Set(["hour", "month", "property", "perUnitHour", "perUnitMonth"]);

/** plain: an object of own string keys (no array, no class, no symbol key), as JSON and YAML give. */
function plain(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && Object.getOwnPropertySymbols(v).length === 0;
}

/** every value of a plain object passes `ok`, none is undefined, and no key is `__proto__`. */
function allOf(v: unknown, ok: (item: unknown) => boolean): boolean {
  if (!plain(v)) return false;
  for (const k of Object.keys(v)) if (k === "__proto__" || !ok(v[k])) return false;
  return true;
}

/** exactly one of `keys` is a price, and nothing else is there. */
function onePrice(v: unknown, keys: readonly string[]): v is Record<string, unknown> {
  if (!plain(v)) return false;
  const own = Object.keys(v);
  return own.length === 1 && keys.includes(own[0] as string) && isPrice(v[own[0] as string]);
}

function isTypePrice(v: unknown): boolean {
  if (!plain(v)) return false;
  const own = Object.keys(v);
  if (!own.every((k) => TYPE_PRICE_KEYS.has(k))) return false;
  const prices = own.filter((k) => k !== "property");
  if (prices.length !== 1 || !isPrice(v[prices[0] as string])) return false;
  const perUnit = prices[0] === "perUnitHour" || prices[0] === "perUnitMonth";
  const property = v["property"];
  return perUnit ? typeof property === "string" && property.length > 0 : !own.includes("property");
}

/** isCurrency: what the currency schema accepts unchanged (its trim would change it otherwise). @internal */
export function isCurrency(v: unknown): boolean {
  return typeof v === "string" && v.length >= 1 && v.length <= 8 && v.trim() === v;
}

/**
 * CARD_SURELY_VALID says, per field, what the rate card schema surely accepts, unchanged (a subset of it;
 * test/hostile/perf.test.ts holds the two side by side). A card all of whose fields pass is read without
 * zod (~60 ms to load); anything else goes to the schema, which names the bad field or lets it through.
 */
const CARD_SURELY_VALID: Readonly<Record<keyof RateCard, (v: unknown) => boolean>> = {
  $schema: (v) => typeof v === "string",
  currency: isCurrency,
  flavors: (v) => allOf(v, (p) => isPrice(p) || onePrice(p, ["hour", "month"])),
  powerStates: (v) => allOf(v, isShare),
  volumeGbMonth: isPrice,
  volumeTypes: (v) => allOf(v, isPrice),
  floatingIpHour: isPrice,
  floatingIpMonth: isPrice,
  types: (v) => allOf(v, isTypePrice),
};

/** rateCardSurelyValid tells a card the schema surely accepts as it is. @internal */
export function rateCardSurelyValid(v: unknown): v is RateCard {
  if (!plain(v)) return false;
  for (const k of Object.keys(v))
    if (!Object.hasOwn(CARD_SURELY_VALID, k) || !CARD_SURELY_VALID[k as keyof RateCard](v[k])) return false;
  return true;
}

type _SameCard = Assert<Exact<RateCard, z.input<ReturnType<typeof rateCardSchema>>>>;

/**
 * parseRateCard checks a rate card and returns it; a bad one throws a ConfigError naming the field
 * (`rateCard.flavors.m1.small: must be 0 or more`). `field` prefixes the names.
 */
export function parseRateCard(
  value: unknown,
  field = "rateCard",
  lineOf?: (path: readonly PropertyKey[]) => number | undefined,
): RateCard {
  // zod drops a `__proto__` key without a word: refused instead, so no price is lost unseen
  if (value !== null && typeof value === "object") {
    for (const key of ["flavors", "powerStates", "volumeTypes", "types"]) {
      const names = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
      if (names !== null && typeof names === "object" && Object.hasOwn(names, "__proto__"))
        throw new ConfigError(`${field}.${key}`, `"__proto__" cannot name a price; remove it or rename it`);
    }
  }
  if (rateCardSurelyValid(value)) return value;
  const r = rateCardSchema().safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const keys = (issue?.path ?? []).map(String);
  // read from a file: its line, then the field as the file names it (bad.yaml:2: flavors.m1.small)
  const line = lineOf?.(issue?.path ?? []);
  const path =
    line !== undefined && keys.length > 0
      ? `${field}:${line}: ${keys.join(".")}`
      : [field, ...keys].join(".");
  const message =
    issue?.code === "unrecognized_keys"
      ? `has an unknown setting ${issue.keys.map((k) => `"${k}"`).join(", ")}; the settings are currency, flavors, powerStates, volumeGbMonth, volumeTypes, floatingIpHour, floatingIpMonth, types`
      : issue === undefined || isZodWording(issue.message)
        ? "is not valid in a rate card; see costgate/rate-card.schema.json"
        : issue.message;
  throw new ConfigError(path, message);
}

/** rateCardJsonSchema is the JSON Schema of a rate card file (shipped as `costgate/rate-card.schema.json`). */
export function rateCardJsonSchema(): Record<string, unknown> {
  return zod().toJSONSchema(rateCardSchema(), { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
}

/** readRateCard reads and checks a rate card file (JSON or YAML); errors name the file and the field. */
export function readRateCard(path: string, limit?: DataFileLimit): RateCard {
  const doc = readDataDocument(path, limit);
  return parseRateCard(doc.value ?? {}, path, doc.lineOf);
}
