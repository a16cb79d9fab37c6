/**
 * `costgate balance` and `costgate usage`: the billing endpoint outside Pulumi.
 */
import { getBalance, getConsumption } from "../../provider/billing/client";
import { productName } from "../../provider/billing/products";
import { formatMoney as money } from "../../provider/money";
import { safeJson } from "../../provider/text";
import { type BalanceOptions, billingEndpoint, type UsageOptions } from "../options/billing";
import { FLAG_NAMES } from "../period-flags";
import { dataNotes } from "../report/words";

export { billingEndpoint } from "../options/billing";

/** balanceCommand prints a project's balance and bonuses. */
export async function balanceCommand(o: BalanceOptions): Promise<number> {
  const b = await getBalance(billingEndpoint(o.endpoint), { projectId: o.projectId, product: o.product });
  if (o.json) {
    process.stdout.write(`${safeJson(b, 2)}\n`);
  } else {
    process.stdout.write(
      `Project ${b.projectId} (${productName(b.productId)}): balance ${money(b.balance)}, bonuses ${money(b.bonuses)} (at ${b.fetchedAt})\n`,
    );
  }
  return 0;
}

/** usageCommand prints a project's charges per day for a period. */
export async function usageCommand(o: UsageOptions): Promise<number> {
  const { endpoint, format, ...q } = o;
  const ep = billingEndpoint(endpoint);
  // the run's cap (--max-requests): a period needing more windows is refused before any request
  const u = await getConsumption(ep, { ...q, maxRequests: endpoint.runBudget.limit, names: FLAG_NAMES });
  if (format === "json") {
    process.stdout.write(`${safeJson(u, 2)}\n`);
  } else if (format === "csv") {
    const rows = [
      "day,totalAmount,totalBonuses",
      ...u.items.map((i) => `${i.day},${i.totalAmount},${i.totalBonuses}`),
    ];
    process.stdout.write(`${rows.join("\n")}\n`);
  } else {
    const lines = [
      `Project ${u.projectId} (${productName(u.productId)}), ${u.periodFrom.slice(0, 10)} to ${u.periodTo.slice(0, 10)}`,
      "",
      `${"day".padEnd(12)}${"amount".padStart(16)}${"bonuses".padStart(14)}`,
      ...u.items.map(
        (i) => `${i.day.padEnd(12)}${money(i.totalAmount).padStart(16)}${money(i.totalBonuses).padStart(14)}`,
      ),
      "",
      `${"total".padEnd(12)}${money(u.total.amount).padStart(16)}${money(u.total.bonuses).padStart(14)}`,
      `daily average ${money(u.dailyAverage)} over ${u.days} day${u.days === 1 ? "" : "s"}; last ${Math.min(7, u.days) === 1 ? "day" : `${Math.min(7, u.days)} days`} ${money(u.trailing7DayAverage)}/day`,
      ...dataNotes(u).map((n) => `note: ${n}`),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  return 0;
}
