/**
 * Validation and normalization of a {@link BudgetInput}: the one place the engine looks at raw input.
 * Every public function goes through here, so a rule never sees an unsorted, duplicated or
 * malformed series.
 */
import Big = require("big.js");

import { dayNumber, utcDay } from "../calendar";
import { AMOUNT_BOUNDS, MAX_AMOUNT, wholeCents } from "../money";
import { perProcess } from "../once";
import { zod } from "../zod";
import { zodToConfigError } from "./config";
import type { BudgetInput, DailyCharge } from "./types";

/**
 * Series is a normalized consumption series: one amount per UTC day, days after today dropped.
 * @internal
 */
export interface Series {
  /** Day number of today (the UTC day containing `now`). */
  today: number;
  /** `totalAmount` per day number; items that shared a day are added up. */
  amounts: Map<number, Big>;
  /** The earliest day present in the input (even with a zero amount), or `null` with no items. */
  first: number | null;
  /**
   * The amount as a number of the days charged by one nonzero item: that item's `totalAmount`, which is
   * what `amounts`' decimal turns back into (see {@link numberOn}). Spares the forecast model's history a
   * decimal-to-number conversion per day.
   */
  numbers?: Map<number, number>;
  /**
   * Every day's amount in whole cents, sorted by day, when every item was a whole number of cents (what
   * billing answers hold) and every sum stays an exact integer: the days are then summed without big.js,
   * and `amounts` is built from this only when read (see {@link toSeries}).
   */
  cents?: Map<number, number>;
}

/**
 * The decimal of a whole number of cents: under 1e15 in magnitude, c/100 has at most 15 significant digits,
 * so the number nearest to it writes it exactly (and big.js reads that text); beyond, a division.
 */
function decimalOfCents(c: number): Big {
  return Math.abs(c) < 1e15 ? new Big(c / 100) : new Big(c).div(100);
}

/**
 * centsOf is the item amount `x` in whole cents when it surely is one (never for -0, whose sign big.js
 * keeps), else undefined.
 */
function centsOf(x: number): number | undefined {
  return Object.is(x, -0) ? undefined : wholeCents(x);
}

/**
 * centsSeries is toSeries' days in whole cents, or undefined when an amount is not whole cents or the
 * sum of their magnitudes could leave the exact integers.
 */
function centsSeries(
  items: readonly DailyCharge[],
  today: number,
): { cents: Map<number, number>; first: number | null } | undefined {
  const cents = new Map<number, number>();
  let first: number | null = null;
  let inOrder = true;
  let last = Number.NEGATIVE_INFINITY;
  let magnitude = 0;
  for (const item of items) {
    const day = dayNumber(item.day) as number;
    if (day > today) continue;
    const c = centsOf(item.totalAmount);
    if (c === undefined) return undefined;
    magnitude += Math.abs(c);
    cents.set(day, (cents.get(day) ?? 0) + c);
    if (day < last) inOrder = false;
    last = day;
    if (first === null || day < first) first = day;
  }
  if (magnitude > Number.MAX_SAFE_INTEGER) return undefined;
  return { cents: inOrder ? cents : new Map([...cents].sort((a, b) => a[0] - b[0])), first };
}

function buildInputSchema() {
  const z = zod();
  const finite = () => z.number({ error: "must be a finite number" });
  // an amount within the wire's bounds: beyond them, sums of a history's days overflow to Infinity
  const beyond = `is beyond ±1e12; ${AMOUNT_BOUNDS}`;
  const amount = () => finite().min(-MAX_AMOUNT, beyond).max(MAX_AMOUNT, beyond);
  const charge = z.object({
    day: z
      .string({ error: "must be a day as YYYY-MM-DD" })
      .refine((d) => dayNumber(d) !== undefined, "must be a day as YYYY-MM-DD (UTC)"),
    totalAmount: amount(),
    totalBonuses: amount(),
  });
  return z.object({
    projectId: finite().int("must be a whole number"),
    balance: amount(),
    bonuses: amount(),
    consumption: z.array(charge, { error: "must be an array of daily charges" }),
    now: z.date({ error: "must be a valid Date (the injected clock)" }),
  });
}

/** A number the schema's `amount` surely accepts: finite and within ±{@link MAX_AMOUNT}. */
const amountNumber = (v: unknown): boolean => typeof v === "number" && Math.abs(v) <= MAX_AMOUNT;
const isCharge = (v: unknown): boolean => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const c = v as Record<string, unknown>;
  return (
    typeof c["day"] === "string" &&
    dayNumber(c["day"]) !== undefined &&
    amountNumber(c["totalAmount"]) &&
    amountNumber(c["totalBonuses"])
  );
};

/**
 * ACCEPTS says, per field, what the input schema surely accepts (a subset of it; test/hostile/perf.test.ts
 * holds the two side by side): anything else goes to the schema, which refuses it or lets it through.
 */
const ACCEPTS: Record<keyof BudgetInput, (v: unknown) => boolean> = {
  projectId: (v) => Number.isSafeInteger(v),
  balance: amountNumber,
  bonuses: amountNumber,
  consumption: (v) => {
    if (!Array.isArray(v)) return false;
    // by index, not every(): a hole of a sparse array is an undefined item, which the schema refuses
    for (let i = 0; i < v.length; i++) if (!isCharge(v[i])) return false;
    return true;
  },
  now: (v) => v instanceof Date && !Number.isNaN(v.getTime()),
};

/** inputSchema is the schema built once per process ({@link perProcess}). */
function inputSchema() {
  return perProcess(buildInputSchema);
}

/** The picks of the input schema checkInput has made, by field list (each built once per process). */
function newPicks() {
  return new Map<string, ReturnType<ReturnType<typeof inputSchema>["pick"]>>();
}

/**
 * checkInput validates the named fields of a {@link BudgetInput} (all of them by default), throwing a
 * `ConfigError` naming the field (`balance`, `consumption.3.day`, `now`).
 * @internal
 */
export function checkInput(
  input: Partial<BudgetInput>,
  fields: ReadonlyArray<keyof BudgetInput> = ["projectId", "balance", "bonuses", "consumption", "now"],
): void {
  // what is surely valid passes without zod: its parse of a project's series was a sixth of `check`'s
  // time per project; zod reads only what this refuses, and names the field
  if (fields.every((f) => ACCEPTS[f](input[f]))) return;
  const mask = Object.fromEntries(fields.map((f) => [f, true])) as Record<keyof BudgetInput, true>;
  const key = fields.join(",");
  const picks = perProcess(newPicks);
  let schema = picks.get(key);
  if (!schema) {
    schema = inputSchema().pick(mask);
    picks.set(key, schema);
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw zodToConfigError(parsed.error, "input");
}

/**
 * toSeries validates `consumption` and `now` and normalizes the series: sorted by day, one amount per
 * day (duplicates added up), days after today ignored (they cannot have been charged yet).
 * @internal
 */
export function toSeries(input: Pick<BudgetInput, "consumption" | "now">): Series {
  checkInput(input, ["consumption", "now"]);
  const today = utcDay(input.now);
  const inCents = centsSeries(input.consumption, today);
  if (inCents) {
    const { cents, first } = inCents;
    return {
      today,
      first,
      cents,
      // the decimals, for a reader of `amounts` (the same values a sum in big.js gives), built once if read
      get amounts() {
        const amounts = new Map<number, Big>();
        for (const [day, c] of cents) amounts.set(day, decimalOfCents(c));
        Object.defineProperty(this, "amounts", { value: amounts, enumerable: true });
        return amounts;
      },
    };
  }
  const amounts = new Map<number, Big>();
  const numbers = new Map<number, number>();
  let first: number | null = null;
  // a Map keeps its first insertion order: days that come in order (a billing answer's) need no sort
  let inOrder = true;
  let last = Number.NEGATIVE_INFINITY;
  const items: DailyCharge[] = input.consumption;
  for (const item of items) {
    const day = dayNumber(item.day) as number;
    if (day > today) continue;
    const prev = amounts.get(day);
    const x = item.totalAmount;
    if (prev !== undefined) {
      amounts.set(day, prev.plus(x));
      numbers.delete(day);
    } else if (x !== 0) {
      amounts.set(day, new Big(x));
      // Big(x) is the decimal of String(x), which reads back as x
      numbers.set(day, x);
    } else {
      // 0 + x is x in big.js for any x but a zero (whose sign the sum takes from the 0)
      amounts.set(day, new Big(0).plus(x));
    }
    if (day < last) inOrder = false;
    last = day;
    if (first === null || day < first) first = day;
  }
  const sorted = inOrder ? amounts : new Map([...amounts].sort((a, b) => a[0] - b[0]));
  return { today, amounts: sorted, first, numbers };
}

/**
 * numberOn is the amount charged on a day as a number (`amountOn(…).toNumber()`): 0 when the day is missing.
 * @internal
 */
export function numberOn(series: Series, day: number): number {
  if (series.cents) {
    const c = series.cents.get(day) ?? 0;
    return c === 0 ? 0 : c / 100;
  }
  return series.numbers?.get(day) ?? amountOn(series, day).toNumber();
}

/**
 * firstChargeBefore is the first day before `day` charged more than 0, or undefined.
 * @internal
 */
export function firstChargeBefore(series: Series, day: number): number | undefined {
  if (series.cents) {
    for (const [d, c] of series.cents) if (d < day && c > 0) return d;
    return undefined;
  }
  for (const [d, amount] of series.amounts) if (d < day && amount.gt(0)) return d;
  return undefined;
}

/**
 * amountOn is the amount charged on a day: 0 when the day is missing.
 * @internal
 */
export function amountOn(series: Series, day: number): Big {
  if (series.cents) return decimalOfCents(series.cents.get(day) ?? 0);
  return series.amounts.get(day) ?? new Big(0);
}

/**
 * centsBetween is {@link totalBetween} in whole cents (an exact integer) when the series is kept in cents,
 * else undefined.
 * @internal
 */
export function centsBetween(series: Series, from: number, to: number): number | undefined {
  if (!series.cents) return undefined;
  let c = 0;
  for (const [day, amount] of series.cents) if (day >= from && day <= to) c += amount;
  return c;
}

/**
 * centsOn is the amount of a day in whole cents when the series is kept in cents, else undefined.
 * @internal
 */
export function centsOn(series: Series, day: number): number | undefined {
  return series.cents ? (series.cents.get(day) ?? 0) : undefined;
}

/**
 * totalBetween adds the amounts of the days from `from` to `to`, both included.
 * @internal
 */
export function totalBetween(series: Series, from: number, to: number): Big {
  const c = centsBetween(series, from, to);
  if (c !== undefined) return decimalOfCents(c);
  let total = new Big(0);
  for (const [day, amount] of series.amounts) if (day >= from && day <= to) total = total.plus(amount);
  return total;
}

/**
 * coveredFrom is the first day of a window that the data covers: the later of the window's start and
 * the series' first day; `null` when the data starts after `to` (or there is none).
 * @internal
 */
export function coveredFrom(series: Series, from: number, to: number): number | null {
  if (series.first === null) return null;
  const start = Math.max(from, series.first);
  return start > to ? null : start;
}
