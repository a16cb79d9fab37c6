/**
 * Small builders for the emulator's tests: token request bodies, GraphQL documents, requests.
 */
import type { Emulator } from "../../emulator";

/** A response read whole: status, headers and the body as text and (when JSON) parsed. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes
  json: any;
}

/** call sends one request and reads the whole answer. */
export async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** postJson POSTs a JSON body (a string is sent as is). */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** passwordAuth is the body of spec §4.1 (scope optional: unscoped). */
export function passwordAuth(user: Record<string, unknown>, scope?: Record<string, unknown>) {
  return {
    auth: { identity: { methods: ["password"], password: { user } }, ...(scope ? { scope } : {}) },
  };
}

/** appCredAuth is the body of spec §4.2. */
export function appCredAuth(cred: Record<string, unknown>) {
  return { auth: { identity: { methods: ["application_credential"], application_credential: cred } } };
}

/** issue gets a token by the demo application credential and returns its value. */
export async function issue(emu: Emulator, query = ""): Promise<Answer & { token: string }> {
  const c = emu.seed.applicationCredentials.demo;
  const a = await postJson(
    `${emu.identityUrl}/auth/tokens${query}`,
    appCredAuth({ id: c.id, secret: c.secret }),
  );
  return { ...a, token: a.headers.get("x-subject-token") ?? "" };
}

export const BALANCE = `query Balance($id: Float!, $product: Int!) {
  bill { getSubscriptionBalance(externalSubscriptionId: $id, productId: $product) { balance bonuses } }
}`;

export const REPORT = `query Report($filter: ReportSubscriptionConsumingFilter!) {
  bill { reportSubscriptionConsuming(filter: $filter) { items { day totalAmount totalBonuses } } }
}`;

/** gql POSTs a GraphQL request with the seeded billing token (override with `headers`). */
export function gql(
  emu: Emulator,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = { "X-User-Token": emu.seed.billing.token },
): Promise<Answer> {
  return postJson(`${emu.billingUrl}/bill/graphql`, { query, variables }, headers);
}

/** report runs REPORT for a project and product over [from, to]. */
export function report(emu: Emulator, id: number, productId: number, periodFrom: string, periodTo: string) {
  return gql(emu, REPORT, { filter: { externalSubscriptionId: id, productId, periodFrom, periodTo } });
}

/** balance runs BALANCE for a project and product. */
export function balance(emu: Emulator, id: number, product: number) {
  return gql(emu, BALANCE, { id, product });
}
