/**
 * The GraphQL documents costgate sends to `{base_url}/bill/graphql` (docs/API.md#balance, docs/API.md#consumption). They are
 * fixed text: every user value travels in `variables`, never in the query.
 */

/** The declared types of the variables; the server's own schema may name others (see client.ts). */
export interface VariableTypes {
  externalSubscriptionId: string;
  productId: string;
  periodFrom: string;
  periodTo: string;
}

/** Types as docs/API.md gives them: number → Float, integer → Int, string → String. */
export const DEFAULT_VARIABLE_TYPES: VariableTypes = {
  externalSubscriptionId: "Float!",
  productId: "Int!",
  periodFrom: "String!",
  periodTo: "String!",
};

/** balanceDocument is `bill { getSubscriptionBalance(externalSubscriptionId, productId) { balance bonuses } }` (docs/API.md#balance). */
export function balanceDocument(t: VariableTypes = DEFAULT_VARIABLE_TYPES): string {
  return `query CostgateBalance($externalSubscriptionId: ${t.externalSubscriptionId}, $productId: ${t.productId}) {
  bill {
    getSubscriptionBalance(externalSubscriptionId: $externalSubscriptionId, productId: $productId) {
      balance
      bonuses
    }
  }
}`;
}

/** consumptionDocument is `bill { reportSubscriptionConsuming(filter: {...}) { items { day totalAmount totalBonuses } } }` (docs/API.md#consumption). */
export function consumptionDocument(t: VariableTypes = DEFAULT_VARIABLE_TYPES): string {
  return `query CostgateConsumption($periodFrom: ${t.periodFrom}, $periodTo: ${t.periodTo}, $externalSubscriptionId: ${t.externalSubscriptionId}, $productId: ${t.productId}) {
  bill {
    reportSubscriptionConsuming(
      filter: {
        periodFrom: $periodFrom
        periodTo: $periodTo
        externalSubscriptionId: $externalSubscriptionId
        productId: $productId
      }
    ) {
      items {
        day
        totalAmount
        totalBonuses
      }
    }
  }
}`;
}

const TYPE_NAME = /^\[?[A-Za-z_][A-Za-z0-9_]*!?\]?!?$/;

/**
 * expectedTypes reads graphql-js's "Variable "$x" of type "Float!" used in position expecting type
 * "Int!"" errors and returns corrected declarations, or undefined when no error is of that kind.
 * @internal
 */
export function expectedTypes(messages: string[], current: VariableTypes): VariableTypes | undefined {
  const next: VariableTypes = { ...current };
  let changed = false;
  for (const m of messages) {
    const hit = /Variable "\$(\w+)" of type "([^"]+)" used in position expecting(?: type)? "([^"]+)"/.exec(m);
    if (!hit) continue;
    const [, name, , want] = hit;
    if (
      name &&
      want &&
      Object.hasOwn(next, name) &&
      TYPE_NAME.test(want) &&
      next[name as keyof VariableTypes] !== want
    ) {
      next[name as keyof VariableTypes] = want;
      changed = true;
    }
  }
  return changed ? next : undefined;
}
