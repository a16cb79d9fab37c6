/**
 * The typed options of the billing commands: the endpoint's flags (every command that reads billing),
 * and `balance`'s and `usage`'s own. Read before any request; the endpoint is resolved (flags, then
 * COSTGATE_BILLING_URL / COSTGATE_BILLING_TOKEN) by the command, from these.
 */

import { type ProductId, parseProduct } from "../../provider/billing/products";
import { parseProjectId } from "../../provider/billing/project-id";
import { type BillingArgs, resolveBillingSettings } from "../../provider/billing/settings";
import { isoDay } from "../../provider/calendar";
import type { RequestBudget } from "../../provider/http";
import { DEFAULT_RUN_REQUESTS } from "../billing-options";
import { UsageError } from "../errors";
import { CLI_NAMES, flag } from "../names";
import { FLAG_NAMES, parseCommandLinePeriod } from "../period-flags";
import { transportArgsFrom } from "../transport-options";
import { type Flags, text, wholeNumber } from "./parse";

/** How to reach the billing endpoint, from the flags: the library's BillingArgs and the run's request cap. */
export interface EndpointOptions {
  args: BillingArgs;
  /** The cap on every request of this run, retries included (--max-requests). */
  runBudget: RequestBudget;
}

/**
 * endpointOptions reads --billing-url, --os-cacert, --insecure, --timeout, --retries and --max-requests
 * (once: the run's one cap).
 */
export function endpointOptions(o: Flags): EndpointOptions {
  const runBudget = runBudgetFrom(o);
  const args: BillingArgs = { ...transportArgsFrom(o), names: CLI_NAMES };
  const url = text(o, "billingUrl");
  if (url !== undefined) args.billingUrl = url;
  const caCert = text(o, "osCacert");
  if (caCert !== undefined) args.caCert = caCert;
  if (o["insecure"] === true) args.insecure = true;
  return { args, runBudget };
}

/**
 * billingEndpoint resolves the endpoint from its options: the flags, then COSTGATE_BILLING_URL /
 * COSTGATE_BILLING_TOKEN. The run's cap travels with it: every request made with it counts, and no other.
 */
export function billingEndpoint(o: EndpointOptions) {
  const ep = resolveBillingSettings(o.args);
  return { ...ep, transport: { ...ep.transport, runBudget: o.runBudget } };
}

/**
 * runBudgetFrom makes the request budget of one run: --max-requests, else COSTGATE_MAX_REQUESTS, else 500.
 * Every request of the run counts, retries included; the one past the cap is not sent. It travels with
 * the endpoint's transport settings, not in module state.
 */
export function runBudgetFrom(o: Flags): RequestBudget {
  const given = text(o, "maxRequests");
  const env = process.env["COSTGATE_MAX_REQUESTS"];
  const cap = flag("maxRequests");
  const [raw, setting] = given !== undefined ? [given, cap] : [env, "COSTGATE_MAX_REQUESTS"];
  if (raw === undefined || raw.trim() === "") return { limit: DEFAULT_RUN_REQUESTS, used: 0, setting: cap };
  const example = setting === cap ? `${cap} 1000` : "COSTGATE_MAX_REQUESTS=1000";
  return { limit: wholeNumber(raw, setting, 1, example), used: 0, setting };
}

/** Which project and product, from the flags or their env stand-ins, each parsed naming what the user set. */
export interface ProjectOptions {
  projectId: number;
  product: ProductId;
}

/**
 * projectOptions reads --project-id (else COSTGATE_PROJECT_ID) and --product (else COSTGATE_PRODUCT, else
 * openstack); an error names the flag or the variable the value came from.
 */
export function projectOptions(o: Flags): ProjectOptions {
  const flagId = text(o, "projectId");
  const envId = process.env["COSTGATE_PROJECT_ID"];
  const flagProduct = text(o, "product");
  const envProduct = process.env["COSTGATE_PRODUCT"];
  return {
    projectId: parseProjectId(
      flagId ?? envId,
      flagId !== undefined || !envId ? "--project-id" : "COSTGATE_PROJECT_ID",
    ),
    product: parseProduct(
      flagProduct ?? envProduct ?? "openstack",
      flagProduct !== undefined || envProduct === undefined ? "--product" : "COSTGATE_PRODUCT",
    ),
  };
}

/** `costgate balance`'s options. */
export interface BalanceOptions extends ProjectOptions {
  endpoint: EndpointOptions;
  json: boolean;
}

/** balanceOptions reads `costgate balance`'s flags. */
export function balanceOptions(o: Flags): BalanceOptions {
  return { ...projectOptions(o), endpoint: endpointOptions(o), json: o["json"] === true };
}

/** `costgate usage`'s options. */
export interface UsageOptions extends ProjectOptions {
  from: string;
  to: string;
  maxPeriodDays?: number;
  windowDays?: number;
  concurrency?: number;
  fillMissingDays: boolean;
  endpoint: EndpointOptions;
  format: "text" | "json" | "csv";
}

/** usageOptions reads `costgate usage`'s flags; the period is checked here, before any request. */
export function usageOptions(o: Flags, now = new Date()): UsageOptions {
  if (o["json"] && o["csv"]) throw new UsageError("--json and --csv: choose one output format");
  const from = text(o, "from");
  // --to defaults to today, as in `report` and the library
  const to = text(o, "to") ?? isoDay(now);
  if (!from) throw new UsageError("--from: missing; give the first day, e.g. --from 2026-11-01");
  const whole = (key: string, flag: string) => {
    const v = o[key];
    return v === undefined ? undefined : wholeNumber(v, flag);
  };
  const maxPeriodDays = whole("maxPeriodDays", FLAG_NAMES.maxPeriodDays);
  const project = projectOptions(o);
  const windowDays = whole("windowDays", "--window-days");
  const concurrency = whole("concurrency", "--concurrency");
  parseCommandLinePeriod(from, to, { now, maxPeriodDays });
  return {
    ...project,
    from,
    to,
    ...(maxPeriodDays === undefined ? {} : { maxPeriodDays }),
    ...(windowDays === undefined ? {} : { windowDays }),
    ...(concurrency === undefined ? {} : { concurrency }),
    fillMissingDays: o["fillMissingDays"] === true,
    endpoint: endpointOptions(o),
    format: o["json"] ? "json" : o["csv"] ? "csv" : "text",
  };
}
