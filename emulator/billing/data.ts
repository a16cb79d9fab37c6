/**
 * The emulator's billing data: per project and product, a balance, bonuses and daily charges
 * (docs/API.md#balance, docs/API.md#consumption). Charges are exact cents. Generated series are computed per day on demand
 * from the seed, so 500 synthetic projects with 3 years of history cost no memory.
 */
import { z } from "zod";
import type { Assert, Exact } from "../../provider/exact";
import { Rng } from "../prng";
import { dayIndexOf, parseDay } from "./days";

/** productId values of docs/API.md#billing-parameters */
export const PRODUCTS = { openstack: 1, objectStorage: 2, vmware: 3 } as const;

const money = (what: string) => z.number({ error: `${what} must be a finite number` });

/** One explicit day of charges, amounts in currency units (rounded to cents). @internal */
export const DailyChargeInputSchema = z
  .object({
    day: z.string().refine((s) => parseDay(s) !== undefined, "day must be YYYY-MM-DD"),
    totalAmount: money("totalAmount"),
    totalBonuses: money("totalBonuses").nullish(),
  })
  .strict();

/** A generated series: a base daily rate with a weekly pattern, a slow trend, noise and bonus days. @internal */
export const GeneratedChargesInputSchema = z
  .object({
    /** Typical weekday charge in currency units. */
    baseDaily: money("baseDaily").nonnegative(),
    /** How many days back the history goes (today included); default 1095 (about 3 years). */
    historyDays: z.number().int().positive().optional(),
    /** A day this many days ago is charged about 4 times the usual amount. */
    spikeDaysAgo: z.number().int().nonnegative().optional(),
    /** Every day present but charged 0. */
    zero: z.boolean().optional(),
    /** From this many days ago on, every day is charged `stepFactor` times as much (a step change). */
    stepDaysAgo: z.number().int().nonnegative().optional(),
    /** The step's factor: above 1 a new service, below 1 a clean-up. Default 1.5. */
    stepFactor: z.number().positive().finite().optional(),
  })
  .strict();

/** One product of a project: its balance, bonuses, and either explicit or generated daily charges. @internal */
export const ProductInputSchema = z
  .object({
    balance: money("balance"),
    bonuses: money("bonuses").nullish(),
    daily: z.array(DailyChargeInputSchema).optional(),
    generate: GeneratedChargesInputSchema.optional(),
  })
  .strict()
  .refine((p) => !(p.daily && p.generate), "give daily or generate, not both");

/** A billing project (the `externalSubscriptionId`) and its products keyed by productId. @internal */
export const BillingProjectInputSchema = z
  .object({
    id: z.number().finite(),
    products: z.record(z.string().regex(/^\d+$/, "product keys are productId integers"), ProductInputSchema),
  })
  .strict();

/** One explicit day of charges, amounts in currency units (rounded to cents). */
export interface DailyChargeInput {
  /** `YYYY-MM-DD`. */
  day: string;
  totalAmount: number;
  totalBonuses?: number | null;
}

/** A generated series: a base daily rate with a weekly pattern, a slow trend, noise and bonus days. */
export interface GeneratedChargesInput {
  /** Typical weekday charge in currency units (0 or more). */
  baseDaily: number;
  /** How many days back the history goes (today included); default 1095 (about 3 years). */
  historyDays?: number;
  /** A day this many days ago is charged about 4 times the usual amount. */
  spikeDaysAgo?: number;
  /** Every day present but charged 0. */
  zero?: boolean;
  /** From this many days ago on, every day is charged `stepFactor` times as much (a step change). */
  stepDaysAgo?: number;
  /** The step's factor: above 1 a new service, below 1 a clean-up. Default 1.5. */
  stepFactor?: number;
}

/** One product of a project: its balance, bonuses, and either explicit (`daily`) or generated charges. */
export interface ProductInput {
  balance: number;
  bonuses?: number | null;
  daily?: DailyChargeInput[];
  generate?: GeneratedChargesInput;
}

/**
 * BillingProjectInput is what `emulator.setProject` takes.
 *
 * @example
 * emu.setProject({ id: 7, products: { 1: { balance: 100, bonuses: 0, daily: [{ day: "2026-11-20", totalAmount: 12.5, totalBonuses: 0 }] } } });
 */
export interface BillingProjectInput {
  id: number;
  /** Keyed by productId (`1` OpenStack, `2` object storage, `3` VMware). */
  products: Record<string, ProductInput>;
}

type _SameInputs = [
  Assert<Exact<DailyChargeInput, z.input<typeof DailyChargeInputSchema>>>,
  Assert<Exact<GeneratedChargesInput, z.input<typeof GeneratedChargesInputSchema>>>,
  Assert<Exact<ProductInput, z.input<typeof ProductInputSchema>>>,
  Assert<Exact<BillingProjectInput, z.input<typeof BillingProjectInputSchema>>>,
];

/** A day's charges in cents; bonusCents null when the day has no bonus value at all. */
export interface DayCharge {
  day: number;
  amountCents: number;
  bonusCents: number | null;
}

interface Generated {
  kind: "generated";
  baseCents: number;
  historyDays: number;
  spikeDaysAgo: number | undefined;
  zero: boolean;
  stepDaysAgo: number | undefined;
  stepFactor: number;
}

interface Explicit {
  kind: "explicit";
  days: Map<number, DayCharge>;
}

interface ProductRecord {
  balanceCents: number;
  bonusesCents: number | null;
  series: Generated | Explicit;
}

const cents = (units: number): number => Math.round(units * 100);
/** Day index of 2025-01-01: the generated trend is 1.0 there and grows 10% a year. */
const TREND_ANCHOR = 20089;

/** BillingStore holds the projects; `today` comes from the emulator clock on every query. */
export class BillingStore {
  private readonly projects = new Map<number, Map<number, ProductRecord>>();

  constructor(private readonly seedKey: string) {}

  /** setProject adds or replaces a project; input errors name the field. */
  setProject(input: BillingProjectInput): void {
    const parsed = BillingProjectInputSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new TypeError(`setProject: ${issue?.path.join(".") || "input"}: ${issue?.message ?? "invalid"}`);
    }
    const products = new Map<number, ProductRecord>();
    for (const [key, p] of Object.entries(parsed.data.products)) {
      products.set(Number(key), toRecord(p));
    }
    this.projects.set(parsed.data.id, products);
  }

  /** removeProject forgets a project; later queries for it answer null. */
  removeProject(id: number): void {
    this.projects.delete(id);
  }

  /** projectIds lists the known project ids in ascending order. */
  projectIds(): number[] {
    return [...this.projects.keys()].sort((a, b) => a - b);
  }

  /** products lists a project's productIds, or undefined for an unknown project. */
  products(id: number): number[] | undefined {
    const p = this.projects.get(id);
    return p ? [...p.keys()].sort((a, b) => a - b) : undefined;
  }

  /**
   * balance answers getSubscriptionBalance: "unknown" for an unknown project, "no-product" when the
   * project has no such product, else the amounts in cents.
   */
  balance(
    id: number,
    productId: number,
  ): "unknown" | "no-product" | { balanceCents: number; bonusesCents: number | null } {
    const project = this.projects.get(id);
    if (!project) return "unknown";
    const product = project.get(productId);
    if (!product) return "no-product";
    return { balanceCents: product.balanceCents, bonusesCents: product.bonusesCents };
  }

  /**
   * consumption answers reportSubscriptionConsuming for the days [fromDay, toDay] that are not
   * after today (per `nowMs`), in date order. Today's generated charge is scaled by the part of
   * the day that has passed. "unknown" / "no-product" as for balance.
   */
  consumption(
    id: number,
    productId: number,
    fromDay: number,
    toDay: number,
    nowMs: number,
  ): "unknown" | "no-product" | DayCharge[] {
    const project = this.projects.get(id);
    if (!project) return "unknown";
    const product = project.get(productId);
    if (!product) return "no-product";
    const today = dayIndexOf(nowMs);
    const last = Math.min(toDay, today);
    const out: DayCharge[] = [];
    const { series } = product;
    if (series.kind === "explicit") {
      for (const charge of series.days.values()) {
        if (charge.day >= fromDay && charge.day <= last) out.push(charge);
      }
      return out.sort((a, b) => a.day - b.day);
    }
    const first = Math.max(fromDay, today - series.historyDays + 1);
    const fraction = (nowMs - today * 86_400_000) / 86_400_000;
    for (let day = first; day <= last; day++) {
      const charge = generatedCharge(this.seedKey, id, productId, series, day, today);
      if (day === today) {
        charge.amountCents = Math.round(charge.amountCents * fraction);
        if (charge.bonusCents !== null) charge.bonusCents = Math.round(charge.bonusCents * fraction);
      }
      out.push(charge);
    }
    return out;
  }

  /**
   * addSynthetic seeds `count` generated projects with ids firstId, firstId+1, ... (load tests use
   * 500) and returns their ids. Each has product 1, some also product 2.
   */
  addSynthetic(count: number, firstId: number): number[] {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const id = firstId + i;
      const rng = new Rng(this.seedKey, "synthetic", id);
      const products: BillingProjectInput["products"] = {
        1: {
          balance: rng.int(-50_000, 5_000_000) / 100,
          bonuses: rng.int(0, 200_000) / 100,
          generate: { baseDaily: rng.int(2_000, 200_000) / 100, historyDays: rng.int(90, 1095) },
        },
      };
      if (rng.next() < 0.3) {
        products[2] = {
          balance: rng.int(0, 500_000) / 100,
          bonuses: 0,
          generate: { baseDaily: rng.int(100, 10_000) / 100, historyDays: rng.int(30, 1095) },
        };
      }
      this.setProject({ id, products });
      ids.push(id);
    }
    return ids;
  }
}

function toRecord(p: z.output<typeof ProductInputSchema>): ProductRecord {
  const balanceCents = cents(p.balance);
  const bonusesCents = p.bonuses === undefined ? 0 : p.bonuses === null ? null : cents(p.bonuses);
  if (p.generate) {
    return {
      balanceCents,
      bonusesCents,
      series: {
        kind: "generated",
        baseCents: cents(p.generate.baseDaily),
        historyDays: p.generate.historyDays ?? 1095,
        spikeDaysAgo: p.generate.spikeDaysAgo,
        zero: p.generate.zero ?? false,
        stepDaysAgo: p.generate.stepDaysAgo,
        stepFactor: p.generate.stepFactor ?? 1.5,
      },
    };
  }
  const days = new Map<number, DayCharge>();
  for (const d of p.daily ?? []) {
    const day = parseDay(d.day) as number;
    const bonus = d.totalBonuses === undefined ? 0 : d.totalBonuses === null ? null : cents(d.totalBonuses);
    days.set(day, { day, amountCents: cents(d.totalAmount), bonusCents: bonus });
  }
  return { balanceCents, bonusesCents, series: { kind: "explicit", days } };
}

/** The charge of one day of a generated series: a pure function of seed, project, product and day. */
function generatedCharge(
  seedKey: string,
  projectId: number,
  productId: number,
  g: Generated,
  day: number,
  today: number,
): DayCharge {
  if (g.zero) return { day, amountCents: 0, bonusCents: 0 };
  const rng = new Rng(seedKey, "day", projectId, productId, day);
  const dow = new Date(day * 86_400_000).getUTCDay();
  const weekly = dow === 0 ? 0.64 : dow === 6 ? 0.72 : 1 + (dow - 3) * 0.03;
  const trend = Math.max(0.5, 1 + (0.1 * (day - TREND_ANCHOR)) / 365);
  const noise = 0.92 + rng.next() * 0.16;
  const step = g.stepDaysAgo !== undefined && today - day <= g.stepDaysAgo ? g.stepFactor : 1;
  let amount = Math.round(g.baseCents * weekly * trend * noise * step);
  if (g.spikeDaysAgo !== undefined && today - day === g.spikeDaysAgo) {
    // on any weekday: 3.5-4.5 times the base rate, so it stands out of the weekly pattern
    amount = Math.round(g.baseCents * trend * (3.5 + rng.next()));
  }
  const bonus = rng.next() < 0.18 ? Math.round(amount * (0.05 + 0.25 * rng.next())) : 0;
  return { day, amountCents: amount, bonusCents: bonus };
}
