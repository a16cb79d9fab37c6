/**
 * The billing GraphQL endpoint: `POST {base_url}/bill/graphql` with the console access token in
 * `X-User-Token` (docs/API.md#balance, docs/API.md#consumption, docs/API.md#authentication). Never `Authorization: Bearer` (docs/API.md#authentication, docs/API.md#errors).
 */

import type Big = require("big.js");

import pLimit from "p-limit";
import { dayNumber } from "../calendar";
import { AuthError, ConfigError, GraphQLError, HttpError, ResponseError, settingName } from "../errors";
import {
  describeBody,
  errorMessageOf,
  type HttpResponse,
  parseJson,
  send,
  statusHint,
  type TransportOptions,
} from "../http";
import { endpointText } from "../text";
import { plural } from "../words";
import {
  balanceDocument,
  consumptionDocument,
  DEFAULT_VARIABLE_TYPES,
  expectedTypes,
  type VariableTypes,
} from "./documents";
import { AMOUNT_BOUNDS, centsAmount, quoteWire, readAmount } from "./money";
import { isoDay, type Period, type PeriodNames, parsePeriod, splitPeriod } from "./periods";
import { type ProductId, parseProduct, productName } from "./products";
import { parseProjectId } from "./project-id";
import { type ProjectBalance, type ProjectConsumption, type RawDay, summarize } from "./results";

export { parseProjectId } from "./project-id";

/** Where the billing endpoint is and the console access token for it (docs/API.md#console-access-tokens). */
export interface BillingEndpoint {
  /** The console/billing base address; costgate adds `/bill/graphql`. */
  baseUrl: string;
  /** The console access token, sent as `X-User-Token`. */
  token: string;
  transport?: TransportOptions;
}

/** graphqlUrl is `{base_url}/bill/graphql`; a base that already ends so is taken as is. */
export function graphqlUrl(baseUrl: string, field = "billingUrl"): string {
  if (typeof baseUrl !== "string" || baseUrl.trim() === "") {
    throw new ConfigError(field, "missing; give the billing base address, e.g. https://console.example");
  }
  let u: URL;
  try {
    u = new URL(baseUrl.trim());
  } catch {
    // not echoed: it may carry a credential
    throw new ConfigError(field, "is not a URL; give the billing base address, e.g. https://console.example");
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") {
    throw new ConfigError(field, `must be an http(s) URL, not ${u.protocol}`);
  }
  // refused rather than dropped, as for the identity address: the access token goes in X-User-Token
  if (u.username || u.password) {
    throw new ConfigError(
      field,
      "carries user info (user:password@); remove it: the access token goes in COSTGATE_BILLING_TOKEN",
    );
  }
  if (u.search || u.hash) {
    throw new ConfigError(
      field,
      "carries a query or fragment, which costgate would not send; give the base address only, e.g. https://console.example",
    );
  }
  const path = u.pathname.replace(/\/+$/, "").replace(/\/bill\/graphql$/, "");
  u.pathname = `${path}/bill/graphql`;
  return u.toString();
}

function checkEndpoint(ep: BillingEndpoint): string {
  // a refusal names the address in the caller's words (its SettingNames)
  const url = graphqlUrl(ep.baseUrl, settingName(ep.transport?.names, "billingUrl"));
  if (typeof ep.token !== "string" || ep.token.trim() === "") {
    throw new ConfigError(
      "billingToken",
      "missing; create a console access token (access management → access tokens) and set COSTGATE_BILLING_TOKEN",
    );
  }
  return url;
}

function statusError(res: HttpResponse, apiMessages: string[]): HttpError {
  const rid = res.requestId ? ` (request id ${res.requestId})` : "";
  const what = `billing endpoint answered ${res.status} to POST ${res.info.url}`;
  const init = {
    status: res.status,
    request: res.info,
    apiMessage: apiMessages.join("; ") || undefined,
    requestId: res.requestId,
  };
  const said = apiMessages.length ? `: ${apiMessages.join("; ")}` : ` with ${describeBody(res)}`;
  if (res.status === 401) {
    return new AuthError(
      `${what}${said} — the console access token was refused. costgate sends it in X-User-Token (never Authorization: Bearer); create one in the console under access management → access tokens (it is shown once, and may have expired) and set COSTGATE_BILLING_TOKEN${rid}`,
      init,
    );
  }
  // through a proxy, a 403 without a GraphQL answer is most likely the proxy's own
  const proxyRefused = res.proxy !== undefined && res.status === 403 && apiMessages.length === 0;
  const hint =
    res.status === 403 && !proxyRefused
      ? `the access token's role may not read billing; use a token with the Administrator or Accountant role${res.proxy ? `; or ${statusHint(res, "the endpoint")}` : ""}`
      : res.status === 404
        ? "no billing endpoint at this address; check COSTGATE_BILLING_URL (the base URL: costgate adds /bill/graphql)"
        : statusHint(res, "the endpoint");
  return new HttpError(`${what}${said}${hint ? ` — ${hint}` : ""}${rid}`, init);
}

/** The most GraphQL error messages shown; the rest are counted. */
const MESSAGES_SHOWN = 5;

/** graphqlMessages lists the raw `errors[].message` of a body: decide with them, never show them. */
function graphqlMessages(body: unknown): string[] | undefined {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  return errors.map((e) => {
    const m = (e as { message?: unknown })?.message;
    return typeof m === "string" ? m : (JSON.stringify(e) ?? String(e));
  });
}

/**
 * shownMessages is what is shown of GraphQL messages: the first few, each one clean line of bounded
 * length, withheld when it echoes the access token or another credential of the run.
 */
function shownMessages(messages: string[], token: string): string[] {
  const shown = messages.slice(0, MESSAGES_SHOWN).map((m) => endpointText(m, [token]));
  const more = messages.length - shown.length;
  return more > 0 ? [...shown, `and ${plural(more, "more error")}`] : shown;
}

/** @internal postQuery sends one document and returns `data`, retrying once with the server's variable types. */
export async function postQuery(
  ep: BillingEndpoint,
  document: (t: VariableTypes) => string,
  variables: Record<string, unknown>,
  operationName: string,
): Promise<unknown> {
  const url = checkEndpoint(ep);
  let types = DEFAULT_VARIABLE_TYPES;
  for (let attempt = 0; ; attempt++) {
    const res = await send({
      service: "billing",
      method: "POST",
      url,
      headers: { "x-user-token": ep.token },
      json: { query: document(types), variables, operationName },
      transport: ep.transport,
      // A query only reads: retried on connection errors, timeouts, 429 and 502/503/504.
      idempotent: true,
    });
    const body = parseJson(res.text);
    const said = body === undefined ? undefined : graphqlMessages(body);
    if (said && attempt === 0) {
      const corrected = expectedTypes(said, types);
      if (corrected) {
        types = corrected;
        continue;
      }
    }
    // A server may echo the X-User-Token (or send control characters) in its messages: shown cleaned.
    const messages = said && shownMessages(said, ep.token);
    if (res.status < 200 || res.status >= 300) {
      // not GraphQL's errors: a gateway's or a proxy's own error body, when it has a message
      const other = messages ? undefined : errorMessageOf(body);
      throw statusError(res, messages ?? (other ? [endpointText(other, [ep.token])] : []));
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      const what =
        body === undefined
          ? describeBody(res)
          : `JSON ${body === null ? "null" : Array.isArray(body) ? "array" : typeof body}`;
      throw new ResponseError(
        `billing endpoint answered ${res.status} to POST ${res.info.url} with ${what}, not GraphQL JSON; check COSTGATE_BILLING_URL`,
        { request: res.info, status: res.status, requestId: res.requestId },
      );
    }
    if (messages) {
      throw new GraphQLError(`billing endpoint returned GraphQL errors: ${messages.join("; ")}`, {
        request: res.info,
        messages,
        status: res.status,
        requestId: res.requestId,
      });
    }
    return (body as { data?: unknown }).data;
  }
}

function noData(what: string, projectId: number, productId: ProductId, res?: { url: string }): ResponseError {
  return new ResponseError(
    `no data — check productId: the billing endpoint has no ${what} for project ${projectId} and product ${productId} (${productName(productId)}); a wrong product or project id gives no data`,
    { request: { service: "billing", method: "POST", url: res?.url ?? "" } },
  );
}

/**
 * billField reads `data.bill.<field>` (docs/API.md#balance, docs/API.md#consumption); a server that answers the field at the top
 * of `data` is read too.
 */
function billField(data: unknown, field: string): unknown {
  if (!data || typeof data !== "object") return undefined;
  const d = data as Record<string, unknown>;
  const bill = Object.hasOwn(d, "bill") ? d["bill"] : undefined;
  if (bill && typeof bill === "object" && Object.hasOwn(bill, field))
    return (bill as Record<string, unknown>)[field];
  return Object.hasOwn(d, field) ? d[field] : undefined;
}

/**
 * wireAmount reads one amount of an answer, or throws a ResponseError naming the field, the day or
 * project it belongs to, the value (bounded, without control characters) and the bounds.
 */
function wireAmount(value: unknown, field: string, of: string, ep: BillingEndpoint): Big {
  const r = readAmount(value);
  if (r.ok) return r.value;
  throw new ResponseError(
    `the billing endpoint answered an amount costgate cannot read: ${field} of ${of} is ${quoteWire(value)} (${r.reason}; ${AMOUNT_BOUNDS})`,
    { request: { service: "billing", method: "POST", url: graphqlUrl(ep.baseUrl) } },
  );
}

/** Arguments of getBalance. */
export interface BalanceQuery {
  projectId: number | string;
  /** Default 1 (openstack). */
  product?: number | string;
}

/**
 * getBalance reads a project's balance and bonuses (docs/API.md#balance).
 *
 * @example const { balance, bonuses } = await getBalance(endpoint, { projectId: 4242, product: "openstack" });
 */
export async function getBalance(
  ep: BillingEndpoint,
  q: BalanceQuery,
  now: () => Date = () => new Date(),
): Promise<ProjectBalance> {
  const projectId = parseProjectId(q.projectId);
  const productId = parseProduct(q.product ?? 1);
  const data = await postQuery(
    ep,
    balanceDocument,
    { externalSubscriptionId: projectId, productId },
    "CostgateBalance",
  );
  const node = billField(data, "getSubscriptionBalance");
  if (!node || typeof node !== "object")
    throw noData("balance", projectId, productId, { url: graphqlUrl(ep.baseUrl) });
  const raw = node as { balance?: unknown; bonuses?: unknown };
  if (raw.balance === null || raw.balance === undefined)
    throw noData("balance", projectId, productId, { url: graphqlUrl(ep.baseUrl) });
  const balance =
    centsAmount(raw.balance) ??
    wireAmount(raw.balance, "getSubscriptionBalance.balance", `project ${projectId}`, ep).toNumber();
  const bonuses =
    centsAmount(raw.bonuses) ??
    wireAmount(raw.bonuses, "getSubscriptionBalance.bonuses", `project ${projectId}`, ep).toNumber();
  return {
    projectId,
    productId,
    balance,
    bonuses,
    fetchedAt: now().toISOString(),
  };
}

/** The longest `day` text read, in characters, before any parsing. */
const MAX_DAY_CHARS = 64;

/**
 * normalizeDay reads `day` as a date, a timestamp (its written date is kept: a day of charges is a
 * calendar day, whatever the offset), or epoch seconds/milliseconds. Text longer than 64 characters and
 * days outside the years 0000–9999 are not days: undefined.
 */
export function normalizeDay(value: unknown): string | undefined {
  // `YYYY-MM-DD` of a real day (nearly every answer's) is read without a Date
  if (typeof value === "string" && dayNumber(value) !== undefined) return value;
  const day = readDay(value);
  return day !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : undefined;
}

function readDay(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) {
    const ms = Math.abs(value) < 1e11 ? value * 1000 : value;
    const d = new Date(ms);
    // beyond ±8.64e15 ms a Date is invalid: not a day
    return Number.isNaN(d.getTime()) ? undefined : isoDay(d);
  }
  if (typeof value !== "string" || value.length > MAX_DAY_CHARS) return undefined;
  const t = value.trim();
  if (/^\d+$/.test(t)) return readDay(Number(t));
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(t);
  if (m) {
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    return isoDay(d) === `${m[1]}-${m[2]}-${m[3]}` ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
  }
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? undefined : isoDay(d);
}

async function fetchWindow(
  ep: BillingEndpoint,
  projectId: number,
  productId: ProductId,
  w: Period,
): Promise<RawDay[]> {
  const data = await postQuery(
    ep,
    consumptionDocument,
    { periodFrom: w.periodFrom, periodTo: w.periodTo, externalSubscriptionId: projectId, productId },
    "CostgateConsumption",
  );
  const report = billField(data, "reportSubscriptionConsuming");
  if (report === null || report === undefined)
    throw noData("consumption", projectId, productId, { url: graphqlUrl(ep.baseUrl) });
  const items = Array.isArray(report) ? report : (report as { items?: unknown }).items;
  if (items === null || items === undefined) return [];
  if (!Array.isArray(items)) {
    throw new ResponseError("billing endpoint sent consumption items that are not a list", {
      request: { service: "billing", method: "POST", url: graphqlUrl(ep.baseUrl) },
    });
  }
  const out: RawDay[] = [];
  items.forEach((item, i) => {
    const it: Record<string, unknown> = item !== null && typeof item === "object" ? item : {};
    const own = (k: string) => (Object.hasOwn(it, k) ? it[k] : undefined);
    const day = normalizeDay(own("day"));
    if (!day) {
      throw new ResponseError(
        `the billing endpoint answered a day costgate cannot read: items[${i}].day is ${quoteWire(own("day"))} (give YYYY-MM-DD, an ISO timestamp or epoch seconds, years 0000–9999, at most ${MAX_DAY_CHARS} characters)`,
        { request: { service: "billing", method: "POST", url: graphqlUrl(ep.baseUrl) } },
      );
    }
    // whole cents (nearly every amount) as numbers; the rest, and every refusal, through readAmount
    const a = own("totalAmount");
    const b = own("totalBonuses");
    const amount = centsAmount(a) ?? wireAmount(a, `items[${i}].totalAmount`, day, ep);
    const bonuses = centsAmount(b) ?? wireAmount(b, `items[${i}].totalBonuses`, day, ep);
    // Keep only the window's own days: windows never share a day, so none is counted twice.
    if (day >= w.fromDay && day <= w.toDay) out.push({ day, amount, bonuses });
  });
  return out;
}

/** Arguments of getConsumption. */
export interface ConsumptionQuery {
  projectId: number | string;
  /** Default 1 (openstack). */
  product?: number | string;
  /** Start: a Date, `YYYY-MM-DD` or an ISO timestamp. */
  from: Date | string;
  /** End (a date means the whole day). Default: now. */
  to?: Date | string;
  /** Longest window one request asks for, in days. Default 31. */
  windowDays?: number;
  /** Windows fetched at once. Default 4. */
  concurrency?: number;
  /** Add zero items for days without charges. Default false. */
  fillMissingDays?: boolean;
  /** Called after each window, for progress displays. */
  onWindow?: (done: number, total: number) => void;
  /** The longest period read, in days. Default 1096 (three years and a day): a typo'd year is refused. */
  maxPeriodDays?: number;
  /**
   * The most requests this call sends, retries included. Default 200. A period needing more windows is
   * refused before any request.
   */
  maxRequests?: number;
  /** How messages name from, to and maxPeriodDays (the command line names its flags). @internal */
  names?: PeriodNames;
}

/** The most requests one getConsumption call sends when the caller does not say. */
export const DEFAULT_MAX_REQUESTS = 200;

/**
 * getConsumption reads per-day charges of a period (docs/API.md#consumption), in windows when the period is long,
 * and sums them in decimal arithmetic.
 *
 * @example const usage = await getConsumption(endpoint, { projectId: 4242, from: "2026-11-01", to: "2026-11-22" });
 */
export async function getConsumption(
  ep: BillingEndpoint,
  q: ConsumptionQuery,
  now: () => Date = () => new Date(),
): Promise<ProjectConsumption> {
  const projectId = parseProjectId(q.projectId);
  const productId = parseProduct(q.product ?? 1);
  const clock = now();
  const period = parsePeriod(q.from, q.to, { now: clock, maxPeriodDays: q.maxPeriodDays, names: q.names });
  const windows = splitPeriod(period, q.windowDays ?? 31);
  const maxRequests = q.maxRequests ?? DEFAULT_MAX_REQUESTS;
  if (!Number.isInteger(maxRequests) || maxRequests < 1) {
    throw new ConfigError("maxRequests", `must be a whole number, 1 or more (got ${maxRequests})`);
  }
  if (windows.length > maxRequests) {
    const setting = q.names?.maxRequests ?? "maxRequests";
    throw new ConfigError(
      setting,
      `the period ${period.fromDay} to ${period.toDay} needs ${windows.length} requests (windows of ${plural(q.windowDays ?? 31, "day")}), more than ${maxRequests}; give longer windows (${q.names?.windowDays ?? "windowDays"}) or raise ${setting}`,
    );
  }
  const budget = { limit: maxRequests, used: 0, setting: "maxRequests" };
  const windowEp: BillingEndpoint = {
    ...ep,
    transport: { ...ep.transport, requestBudget: ep.transport?.requestBudget ?? budget },
  };
  const concurrency = q.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ConfigError("concurrency", `must be a whole number, 1 or more (got ${concurrency})`);
  }
  checkEndpoint(ep);
  const limit = pLimit(concurrency);
  let done = 0;
  const parts = await Promise.all(
    windows.map((w) =>
      limit(async () => {
        const days = await fetchWindow(windowEp, projectId, productId, w).catch((e: unknown) => {
          // one window failed (after its retries): the result is lost, so start no more windows
          limit.clearQueue();
          throw e;
        });
        q.onWindow?.(++done, windows.length);
        return days;
      }),
    ),
  );
  return summarize({ projectId, productId, ...period }, parts.flat(), {
    fillMissingDays: q.fillMissingDays,
    today: isoDay(clock),
  });
}
