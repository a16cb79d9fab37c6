/**
 * Billing results, normalized: numbers, `day` as `YYYY-MM-DD`, items sorted, totals in decimal
 * arithmetic (docs/API.md#balance, docs/API.md#consumption).
 */
import type Big = require("big.js");

import type { DailyCharge } from "../budget/types";
import { cents, sum, toNumber } from "./money";
import { addDays, daysBetween } from "./periods";
import type { ProductId } from "./products";

/** ProjectBalance is a project's balance and bonuses (docs/API.md#balance, `getSubscriptionBalance`). */
export interface ProjectBalance {
  projectId: number;
  productId: ProductId;
  balance: number;
  bonuses: number;
  /** When the balance was read, ISO 8601 UTC. */
  fetchedAt: string;
}

/** DailyCharge is one day of charges (docs/API.md#consumption): `day` is `YYYY-MM-DD`. Shared with the budget rules. */
export type { DailyCharge } from "../budget/types";

/** ProjectConsumption is the per-day charges of a period and what follows from them. */
export interface ProjectConsumption {
  projectId: number;
  productId: ProductId;
  /** The period as sent, `YYYY-MM-DDTHH:mm:ss.sssZ`. */
  periodFrom: string;
  periodTo: string;
  /** One item per day with charges (every day of the period with fillMissingDays), sorted by day. */
  items: DailyCharge[];
  total: { amount: number; bonuses: number };
  /** total.amount / days, to the cent. */
  dailyAverage: number;
  /** The days the period covers, up to today: the divisor of dailyAverage. */
  days: number;
  /** The day with the highest amount, or null with no charges. */
  highestDay: DailyCharge | null;
  /** The average of the last 7 days covered (missing days count as 0), to the cent. */
  trailing7DayAverage: number;
  /**
   * Days the endpoint answered in more than one item, with how many: their amounts are summed into one
   * day (and counted once in every figure). Empty when every day came once.
   */
  mergedDays?: { day: string; items: number }[];
  /**
   * Days whose amount is below zero (a refund or a correction): kept as they are, so they lower the
   * period's total and averages. Empty when no day is.
   */
  refundDays?: string[];
}

/** @internal A day's decimals before they become numbers. */
export interface RawDay {
  day: string;
  amount: Big;
  bonuses: Big;
}

/** @internal summarize builds a ProjectConsumption from merged days. */
export function summarize(
  head: {
    projectId: number;
    productId: ProductId;
    periodFrom: string;
    periodTo: string;
    fromDay: string;
    toDay: string;
  },
  raw: RawDay[],
  opts: { fillMissingDays?: boolean; today: string },
): ProjectConsumption {
  const byDay = new Map<string, RawDay>();
  const seen = new Map<string, number>();
  for (const r of raw) {
    seen.set(r.day, (seen.get(r.day) ?? 0) + 1);
    const prev = byDay.get(r.day);
    byDay.set(
      r.day,
      prev ? { day: r.day, amount: prev.amount.plus(r.amount), bonuses: prev.bonuses.plus(r.bonuses) } : r,
    );
  }
  const lastDay = head.toDay < opts.today ? head.toDay : opts.today;
  const days = daysBetween(head.fromDay, lastDay);
  let list = [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const toItem = (r: RawDay): DailyCharge => ({
    day: r.day,
    totalAmount: toNumber(r.amount),
    totalBonuses: toNumber(r.bonuses),
  });
  let items = list.map(toItem);
  if (opts.fillMissingDays) {
    items = [];
    for (let d = head.fromDay; d <= lastDay; d = addDays(d, 1)) {
      const r = byDay.get(d);
      items.push(r ? toItem(r) : { day: d, totalAmount: 0, totalBonuses: 0 });
    }
  }
  const amount = sum(list.map((r) => r.amount));
  const bonuses = sum(list.map((r) => r.bonuses));
  let highest: RawDay | undefined;
  for (const r of list) if (!highest || r.amount.gt(highest.amount)) highest = r;
  const trailingStart = addDays(lastDay, -6) > head.fromDay ? addDays(lastDay, -6) : head.fromDay;
  const trailingDays = daysBetween(trailingStart, lastDay);
  list = list.filter((r) => r.day >= trailingStart && r.day <= lastDay);
  const trailing = sum(list.map((r) => r.amount));
  return {
    projectId: head.projectId,
    productId: head.productId,
    periodFrom: head.periodFrom,
    periodTo: head.periodTo,
    items,
    total: { amount: toNumber(amount), bonuses: toNumber(bonuses) },
    dailyAverage: days > 0 ? cents(amount.div(days)) : 0,
    days,
    highestDay: highest ? toItem(highest) : null,
    trailing7DayAverage: trailingDays > 0 ? cents(trailing.div(trailingDays)) : 0,
    mergedDays: [...seen]
      .filter(([, n]) => n > 1)
      .map(([day, n]) => ({ day, items: n }))
      .sort((a, b) => (a.day < b.day ? -1 : 1)),
    refundDays: [...byDay.values()]
      .filter((r) => r.amount.lt(0))
      .map((r) => r.day)
      .sort(),
  };
}
