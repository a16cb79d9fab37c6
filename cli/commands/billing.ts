/**
 * `costgate balance` and `costgate usage`: the billing endpoint outside Pulumi.
 */
import { getBalance, getConsumption, parseProjectId } from "../../provider/billing/client";
import { parsePeriod } from "../../provider/billing/periods";
import { parseProduct, productName } from "../../provider/billing/products";
import { type BillingArgs, resolveBillingSettings } from "../../provider/settings";
import { UsageError } from "../errors";
import { money } from "../format";
import { transportArgsFrom } from "../transport-options";

type Opts = Record<string, string | boolean | undefined>;

/** projectAndProduct reads the flags or their env stand-ins. */
export function projectAndProduct(o: Opts): { projectId: string | undefined; product: string } {
  const projectId = (o["projectId"] as string | undefined) ?? process.env["COSTGATE_PROJECT_ID"];
  const product = (o["product"] as string | undefined) ?? process.env["COSTGATE_PRODUCT"] ?? "openstack";
  return { projectId, product };
}

/** billingEndpointFrom resolves the endpoint: flags, then COSTGATE_BILLING_URL / COSTGATE_BILLING_TOKEN. */
export function billingEndpointFrom(o: Opts) {
  const args: BillingArgs = transportArgsFrom(o);
  if (typeof o["billingUrl"] === "string") args.billingUrl = o["billingUrl"];
  if (typeof o["osCacert"] === "string") args.caCert = o["osCacert"];
  if (o["insecure"] === true) args.insecure = true;
  return resolveBillingSettings(args);
}

/** positiveInt reads an optional whole-number flag. */
export function positiveInt(o: Opts, key: string, flag: string): number | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag}: "${v}" is not a whole number of 1 or more`);
  return n;
}

export async function balanceCommand(o: Opts): Promise<number> {
  const { projectId, product } = projectAndProduct(o);
  const q = {
    projectId: parseProjectId(projectId, "--project-id"),
    product: parseProduct(product, "--product"),
  };
  const ep = billingEndpointFrom(o);
  const b = await getBalance(ep, q);
  if (o["json"]) {
    process.stdout.write(`${JSON.stringify(b, null, 2)}\n`);
  } else {
    process.stdout.write(
      `Project ${b.projectId} (${productName(b.productId)}): balance ${money(b.balance)}, bonuses ${money(b.bonuses)} (at ${b.fetchedAt})\n`,
    );
  }
  return 0;
}

export async function usageCommand(o: Opts): Promise<number> {
  if (o["json"] && o["csv"]) throw new UsageError("--json and --csv: choose one output format");
  const { projectId, product } = projectAndProduct(o);
  const from = o["from"] as string | undefined;
  const to = o["to"] as string | undefined;
  if (!from) throw new UsageError("--from: missing; give the first day, e.g. --from 2026-11-01");
  if (!to) throw new UsageError("--to: missing; give the last day, e.g. --to 2026-11-22");
  const q = {
    projectId: parseProjectId(projectId, "--project-id"),
    product: parseProduct(product, "--product"),
    from,
    to,
    windowDays: positiveInt(o, "windowDays", "--window-days"),
    concurrency: positiveInt(o, "concurrency", "--concurrency"),
    fillMissingDays: o["fillMissingDays"] === true,
  };
  try {
    parsePeriod(from, to);
  } catch (e) {
    throw Object.assign(e as Error, { message: (e as Error).message.replace(/^(from|to):/, "--$1:") });
  }
  const ep = billingEndpointFrom(o);
  const u = await getConsumption(ep, q);
  if (o["json"]) {
    process.stdout.write(`${JSON.stringify(u, null, 2)}\n`);
  } else if (o["csv"]) {
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
      `daily average ${money(u.dailyAverage)} over ${u.days} days; last 7 days ${money(u.trailing7DayAverage)}/day`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  return 0;
}
