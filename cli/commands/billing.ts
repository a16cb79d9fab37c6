/**
 * `costgate balance` and `costgate usage`: the billing endpoint outside Pulumi.
 */
import { getBalance, getConsumption, parseProjectId } from "../../provider/billing/client";
import { isoDay, parsePeriod } from "../../provider/billing/periods";
import { parseProduct, productName } from "../../provider/billing/products";
import type { RequestBudget } from "../../provider/http";
import { formatMoney as money } from "../../provider/money";
import { type BillingArgs, resolveBillingSettings } from "../../provider/settings";
import { safeJson } from "../../provider/text";
import { DEFAULT_RUN_REQUESTS } from "../billing-options";
import { UsageError } from "../errors";
import { type Flags as Opts, text, wholeNumber } from "../options/parse";
import { FLAG_NAMES } from "../period-flags";
import { dataNotes } from "../report/words";
import { transportArgsFrom } from "../transport-options";

/**
 * projectAndProduct reads the flags or their env stand-ins, and names where each came from
 * (`--project-id` or `COSTGATE_PROJECT_ID`), so that an error names what the user set.
 */
export function projectAndProduct(o: Opts): {
  projectId: string | undefined;
  product: string;
  projectIdFrom: string;
  productFrom: string;
} {
  const flagId = text(o, "projectId");
  const flagProduct = text(o, "product");
  const envProduct = process.env["COSTGATE_PRODUCT"];
  return {
    projectId: flagId ?? process.env["COSTGATE_PROJECT_ID"],
    projectIdFrom:
      flagId !== undefined || !process.env["COSTGATE_PROJECT_ID"] ? "--project-id" : "COSTGATE_PROJECT_ID",
    product: flagProduct ?? envProduct ?? "openstack",
    productFrom: flagProduct !== undefined || envProduct === undefined ? "--product" : "COSTGATE_PRODUCT",
  };
}

/** runRequestCap is the cap on the requests of this run (see {@link runBudgetFrom}). */
export function runRequestCap(o: Opts): number {
  return runBudgetFrom(o).limit;
}

/**
 * runBudgetFrom makes the request budget of one run: --max-requests, else COSTGATE_MAX_REQUESTS, else 500.
 * Every request of the run counts, retries included; the one past the cap is not sent. It travels with
 * the endpoint's transport settings ({@link billingEndpointFrom}), not in module state.
 */
export function runBudgetFrom(o: Opts): RequestBudget {
  const flag = text(o, "maxRequests");
  const env = process.env["COSTGATE_MAX_REQUESTS"];
  const [raw, setting] = flag !== undefined ? [flag, "--max-requests"] : [env, "COSTGATE_MAX_REQUESTS"];
  let limit = DEFAULT_RUN_REQUESTS;
  if (raw !== undefined && raw.trim() !== "") {
    limit = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(limit) || limit < 1) {
      throw new UsageError(
        `${setting}: "${raw}" is not a whole number of 1 or more; e.g. ${setting === "--max-requests" ? "--max-requests 1000" : "COSTGATE_MAX_REQUESTS=1000"}`,
      );
    }
  }
  return { limit, used: 0, setting: raw !== undefined && raw.trim() !== "" ? setting : "--max-requests" };
}

/** maxPeriodDaysFrom reads --max-period-days. */
export function maxPeriodDaysFrom(o: Opts): number | undefined {
  return positiveInt(o, "maxPeriodDays", "--max-period-days");
}

/** billingEndpointFrom resolves the endpoint: flags, then COSTGATE_BILLING_URL / COSTGATE_BILLING_TOKEN. */
export function billingEndpointFrom(o: Opts) {
  const runBudget = runBudgetFrom(o);
  const args: BillingArgs = transportArgsFrom(o);
  if (typeof o["billingUrl"] === "string") args.billingUrl = o["billingUrl"];
  if (typeof o["osCacert"] === "string") args.caCert = o["osCacert"];
  if (o["insecure"] === true) args.insecure = true;
  const ep = resolveBillingSettings(args);
  // the run's cap travels with the endpoint: every request made with it counts, and no other
  return { ...ep, transport: { ...ep.transport, runBudget } };
}

/** positiveInt reads an optional whole-number flag. */
export function positiveInt(o: Opts, key: string, flag: string): number | undefined {
  return o[key] === undefined ? undefined : wholeNumber(o[key], flag);
}

export async function balanceCommand(o: Opts): Promise<number> {
  const { projectId, product, projectIdFrom, productFrom } = projectAndProduct(o);
  const q = {
    projectId: parseProjectId(projectId, projectIdFrom),
    product: parseProduct(product, productFrom),
  };
  const ep = billingEndpointFrom(o);
  const b = await getBalance(ep, q);
  if (o["json"]) {
    process.stdout.write(`${safeJson(b, 2)}\n`);
  } else {
    process.stdout.write(
      `Project ${b.projectId} (${productName(b.productId)}): balance ${money(b.balance)}, bonuses ${money(b.bonuses)} (at ${b.fetchedAt})\n`,
    );
  }
  return 0;
}

export async function usageCommand(o: Opts): Promise<number> {
  if (o["json"] && o["csv"]) throw new UsageError("--json and --csv: choose one output format");
  const { projectId, product, projectIdFrom, productFrom } = projectAndProduct(o);
  const from = text(o, "from");
  // --to defaults to today, as in `report` and the library
  const to = text(o, "to") ?? isoDay(new Date());
  if (!from) throw new UsageError("--from: missing; give the first day, e.g. --from 2026-11-01");
  const maxPeriodDays = maxPeriodDaysFrom(o);
  const q = {
    projectId: parseProjectId(projectId, projectIdFrom),
    product: parseProduct(product, productFrom),
    from,
    to,
    windowDays: positiveInt(o, "windowDays", "--window-days"),
    concurrency: positiveInt(o, "concurrency", "--concurrency"),
    fillMissingDays: o["fillMissingDays"] === true,
    maxPeriodDays,
    // the run's cap (--max-requests): a period needing more windows is refused before any request
    maxRequests: runRequestCap(o),
    names: FLAG_NAMES,
  };
  parsePeriod(from, to, { maxPeriodDays, names: FLAG_NAMES });
  const ep = billingEndpointFrom(o);
  const u = await getConsumption(ep, q);
  if (o["json"]) {
    process.stdout.write(`${safeJson(u, 2)}\n`);
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
      `daily average ${money(u.dailyAverage)} over ${u.days} day${u.days === 1 ? "" : "s"}; last ${Math.min(7, u.days) === 1 ? "day" : `${Math.min(7, u.days)} days`} ${money(u.trailing7DayAverage)}/day`,
      ...dataNotes(u).map((n) => `note: ${n}`),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  return 0;
}
