/**
 * POST /bill/graphql: GraphQL over HTTP (docs/API.md#balance, docs/API.md#consumption) behind the console access token check
 * of docs/API.md#authentication Parse and validation errors answer 400, execution errors 200, both
 * `{"errors":[{"message","locations","path"}]}`.
 */
import { execute, type GraphQLSchema, parse, validate } from "graphql";
import {
  jsonReply,
  nginxReply,
  RESET,
  type RecordedRequest,
  type Reply,
  reason,
  reply,
  requestId,
} from "../http";
import { type BillingKnobs, consume, pendingFault } from "../knobs";
import type { SeedData } from "../seed";
import type { BillingStore } from "./data";
import { billingRoot } from "./schema";

/** BillingContext is what the billing route needs from the emulator. */
export interface BillingContext {
  schema: GraphQLSchema;
  store: BillingStore;
  seed: SeedData;
  knobs: () => BillingKnobs;
  now: () => Date;
}

const JSON_UTF8 = "application/json; charset=utf-8";

/** handleBilling answers one request to /bill/graphql. */
export function handleBilling(ctx: BillingContext, rec: RecordedRequest): Reply {
  const common: Record<string, string> = { "x-openstack-request-id": requestId() };
  const answer = (status: number, body: unknown, extra: Record<string, string> = {}) =>
    jsonReply(status, body, { ...common, "Content-Type": JSON_UTF8, ...extra });
  const k = ctx.knobs();

  const fault = pendingFault(k);
  if (fault?.kind === "reset") return RESET;
  if (fault?.kind === "html") return nginxReply(fault.status, fault.retryAfter);
  if (fault?.kind === "status") {
    const extra: Record<string, string> = {};
    if (fault.retryAfter !== undefined) extra["Retry-After"] = String(fault.retryAfter);
    return answer(fault.status, { errors: [{ message: reason(fault.status) }] }, extra);
  }

  if (rec.method === "OPTIONS") return reply(204, { ...common, Allow: "POST, OPTIONS" });
  if (rec.method !== "POST") {
    const body = { errors: [{ message: "GraphQL only supports POST requests." }] };
    return answer(405, body, { Allow: "POST, OPTIONS" });
  }

  // docs/API.md#authentication: the console access token in X-User-Token; Authorization: Bearer is refused (docs/API.md#errors).
  const bearer = /^\s*bearer\b/i.test(rec.headers.authorization ?? "");
  const token = rec.headers["x-user-token"];
  if (bearer || !token || !ctx.seed.billing.tokens.some((t) => t.token === token)) {
    return answer(401, { errors: [{ message: "Unauthorized" }] });
  }

  if (k.graphqlErrors && k.graphqlErrors.length > 0 && consume(k)) {
    return answer(200, {
      errors: k.graphqlErrors.map((message) => ({ message, path: ["bill"] })),
      data: null,
    });
  }

  let body: unknown;
  try {
    body = JSON.parse(rec.rawBody);
  } catch {
    return answer(400, { errors: [{ message: "POST body sent invalid JSON." }] });
  }
  const b = (typeof body === "object" && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  if (typeof b.query !== "string")
    return answer(400, { errors: [{ message: "Must provide query string." }] });
  const variables = b.variables ?? null;
  if (variables !== null && (typeof variables !== "object" || Array.isArray(variables))) {
    return answer(400, { errors: [{ message: "Variables are invalid JSON." }] });
  }
  const operationName = typeof b.operationName === "string" ? b.operationName : null;

  let document: ReturnType<typeof parse>;
  try {
    document = parse(b.query);
  } catch (err) {
    return answer(400, { errors: [err] });
  }
  const invalid = validate(ctx.schema, document);
  if (invalid.length > 0) return answer(400, { errors: invalid });

  const result = execute({
    schema: ctx.schema,
    document,
    rootValue: billingRoot({ store: ctx.store, knobs: k, now: ctx.now, seedKey: String(ctx.seed.seed) }),
    variableValues: variables as Record<string, unknown> | null,
    operationName,
  });
  if ("then" in result) throw new Error("billing resolvers are synchronous");
  // No `data` at all: the request failed before execution (variables, operation name).
  return answer("data" in result ? 200 : 400, result);
}
