/**
 * min-balance: the balance (optionally with bonuses) stays at or above `minBalance`.
 */
import Big = require("big.js");

import { cents, formatMoney } from "./money";
import { type BudgetRule, notConfigured } from "./rule";
import { RULE_INFO } from "./rule-info";
import { availableOf } from "./runway";

/**
 * minBalanceRule passes when the balance — plus bonuses with `includeBonuses` — is at or above
 * `minBalance`; it is `not-configured` when `minBalance` is not set. Mandatory by default.
 */
export const minBalanceRule: BudgetRule = {
  ...RULE_INFO["min-balance"],
  check(ctx) {
    const { input, config } = ctx;
    if (config.minBalance === undefined) return notConfigured(ctx, "min-balance", "minBalance");
    const available = availableOf(input.balance, input.bonuses, config.includeBonuses);
    const minBalance = config.minBalance;
    // two finite numbers compare as their shortest texts (what big.js reads) do
    const status = (
      Number.isFinite(available) && Number.isFinite(minBalance)
        ? available >= minBalance
        : new Big(available).gte(minBalance)
    )
      ? "pass"
      : "fail";
    const balance = cents(input.balance);
    const bonuses = cents(input.bonuses);
    const message = config.includeBonuses
      ? `Project ${input.projectId} has a balance of ${formatMoney(balance)} plus ${formatMoney(bonuses)} in bonuses ` +
        `(${formatMoney(available)}); the policy requires at least ${formatMoney(minBalance)} including bonuses.`
      : `Project ${input.projectId} has a balance of ${formatMoney(balance)}; ` +
        `the policy requires at least ${formatMoney(minBalance)}.`;
    return {
      status,
      message,
      figures: { balance, bonuses, includeBonuses: config.includeBonuses, available, minBalance },
    };
  },
};
