/**
 * The billing GraphQL schema (docs/API.md#balance, docs/API.md#consumption) and its resolvers over the BillingStore.
 * The API does not document the types of amounts or `day` (docs/API.md#balance, docs/API.md#consumption), so they are custom scalars
 * whose representation the knobs choose: amounts as numbers or numeric strings, `day` as a date or
 * a timestamp. Errors of docs/API.md#errors are "no data": null or empty items, never a GraphQL error.
 */
import { buildSchema, type GraphQLSchema } from "graphql";
import type { BillingKnobs } from "../knobs";
import { Rng } from "../prng";
import type { BillingStore, DayCharge } from "./data";
import { dayIndexOf, dayString, dayTimestamp, parsePeriodBound } from "./days";

/** BILLING_SDL is the schema served at POST /bill/graphql. */
export const BILLING_SDL = `"""A money amount in currency units: a JSON number or a numeric string such as "1312.40"."""
scalar Decimal

"""A day: YYYY-MM-DD or YYYY-MM-DDT00:00:00.000Z."""
scalar Day

type Query {
  bill: Bill
}

type Bill {
  getSubscriptionBalance(externalSubscriptionId: Float!, productId: Int!): SubscriptionBalance
  reportSubscriptionConsuming(filter: ReportSubscriptionConsumingFilter!): SubscriptionConsumingReport
}

input ReportSubscriptionConsumingFilter {
  periodFrom: String!
  periodTo: String!
  externalSubscriptionId: Float!
  productId: Int!
}

type SubscriptionBalance {
  balance: Decimal
  bonuses: Decimal
}

type SubscriptionConsumingReport {
  items: [ConsumingItem!]!
}

type ConsumingItem {
  day: Day
  totalAmount: Decimal
  totalBonuses: Decimal
}
`;

/** billingSchema builds the executable schema (custom scalars pass values through). */
export function billingSchema(): GraphQLSchema {
  return buildSchema(BILLING_SDL);
}

/** What the resolvers read: the data, the knobs of the moment, the clock and the seed. */
export interface BillingResolverContext {
  store: BillingStore;
  knobs: BillingKnobs;
  now: () => Date;
  seedKey: string;
}

interface Filter {
  periodFrom: string;
  periodTo: string;
  externalSubscriptionId: number;
  productId: number;
}

/** billingRoot is the root value: `bill` resolves to an object whose methods are the fields. */
export function billingRoot(ctx: BillingResolverContext) {
  const k = ctx.knobs;
  const amount = (cents: number) => (k.amountFormat === "string" ? (cents / 100).toFixed(2) : cents / 100);
  const item = (c: DayCharge) => ({
    day: k.dayFormat === "timestamp" ? dayTimestamp(c.day) : dayString(c.day),
    totalAmount: amount(c.amountCents),
    totalBonuses:
      c.bonusCents === null || (k.nullBonuses && c.bonusCents === 0) ? null : amount(c.bonusCents),
  });
  return {
    bill: () => ({
      getSubscriptionBalance(args: { externalSubscriptionId: number; productId: number }) {
        const b = ctx.store.balance(args.externalSubscriptionId, args.productId);
        if (typeof b === "string") return null;
        return {
          balance: amount(b.balanceCents),
          bonuses: k.nullBonuses || b.bonusesCents === null ? null : amount(b.bonusesCents),
        };
      },
      reportSubscriptionConsuming({ filter }: { filter: Filter }) {
        const id = filter.externalSubscriptionId;
        if (ctx.store.products(id) === undefined) return null;
        const from = parsePeriodBound(filter.periodFrom);
        const to = parsePeriodBound(filter.periodTo);
        if (from === undefined || to === undefined || from > to) return { items: [] };
        const days = ctx.store.consumption(
          id,
          filter.productId,
          dayIndexOf(from),
          dayIndexOf(to),
          ctx.now().getTime(),
        );
        // a product the project does not have: no data, as getSubscriptionBalance answers it (docs/API.md#billing-parameters:
        // "a wrong productId gives missing data"), so usage and balance agree
        if (typeof days === "string") return null;
        let ordered = days;
        if (k.shuffle && days.length > 1) {
          ordered = new Rng(ctx.seedKey, "shuffle", id, filter.productId, from, to).shuffle(days);
          // never hand back date order by chance: rotate by one if the shuffle kept it
          if (ordered.every((c, i) => i === 0 || (ordered[i - 1] as DayCharge).day < c.day)) {
            ordered = [...ordered.slice(1), ordered[0] as DayCharge];
          }
        }
        return { items: ordered.map(item) };
      },
    }),
  };
}
