/**
 * The Keystone v3 routes: version discovery (`/`, `/v3`) and `/v3/auth/tokens` (POST issue,
 * GET validate, HEAD check, DELETE revoke), with Keystone's statuses, headers and bodies.
 */
import { jsonReply, nginxReply, RESET, type RecordedRequest, type Reply, reply, requestId } from "../http";
import { consume, type IdentityKnobs, pendingFault } from "../knobs";
import type { SeedData } from "../seed";
import { authenticate } from "./auth";
import type { Directory } from "./directory";
import { forbidden, genericStatus, KeystoneError, tokenNotFound, unauthorized } from "./errors";
import { renderToken, type TokenRecord, type TokenStore } from "./tokens";

/** IdentityContext is what the identity routes need from the emulator. */
export interface IdentityContext {
  seed: SeedData;
  dir: Directory;
  tokens: TokenStore;
  knobs: () => IdentityKnobs;
}

const VERSION = {
  id: "v3.14",
  status: "stable",
  updated: "2020-04-07T00:00:00Z",
  "media-types": [{ base: "application/json", type: "application/vnd.openstack.identity-v3+json" }],
};

const NOT_FOUND_HTML =
  "<!doctype html>\n<html lang=en>\n<title>404 Not Found</title>\n<h1>Not Found</h1>\n<p>The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.</p>\n";

function versionDoc(base: string) {
  return {
    id: VERSION.id,
    status: VERSION.status,
    updated: VERSION.updated,
    links: [{ rel: "self", href: `${base}/v3/` }],
    "media-types": VERSION["media-types"],
  };
}

/** handleIdentity answers one identity request; `base` is the scheme and host the client used. */
export function handleIdentity(ctx: IdentityContext, rec: RecordedRequest, base: string): Reply {
  const common: Record<string, string> = { Vary: "X-Auth-Token", "x-openstack-request-id": requestId() };
  const fail = (err: KeystoneError) => {
    const headers = { ...common };
    if (err.code === 401) headers["WWW-Authenticate"] = `Keystone uri="${base}/v3"`;
    return jsonReply(err.code, err.body(), headers);
  };

  const k = ctx.knobs();
  const fault = pendingFault(k);
  if (fault?.kind === "reset") return RESET;
  if (fault?.kind === "html") return nginxReply(fault.status, fault.retryAfter);
  if (fault?.kind === "status") {
    if (fault.retryAfter !== undefined) common["Retry-After"] = String(fault.retryAfter);
    return fail(genericStatus(fault.status));
  }

  // Flask's method handling: OPTIONS lists the methods, others not listed are 405.
  const methodReply = (methods: string): Reply | undefined => {
    if (rec.method === "OPTIONS") {
      return reply(200, { ...common, Allow: methods, "Content-Type": "text/html; charset=utf-8" });
    }
    if (methods.split(", ").includes(rec.method)) return undefined;
    const body = { message: "The method is not allowed for the requested URL." };
    return jsonReply(405, body, { ...common, Allow: methods });
  };

  if (rec.path === "/") {
    const body = { versions: { values: [versionDoc(base)] } };
    return methodReply("HEAD, GET, OPTIONS") ?? jsonReply(300, body, { ...common, Location: `${base}/v3/` });
  }
  if (rec.path === "/v3" || rec.path === "/v3/") {
    return methodReply("HEAD, GET, OPTIONS") ?? jsonReply(200, { version: versionDoc(base) }, common);
  }
  if (rec.path !== "/v3/auth/tokens") {
    return reply(404, { ...common, "Content-Type": "text/html; charset=utf-8" }, NOT_FOUND_HTML);
  }
  const refused = methodReply("HEAD, POST, GET, OPTIONS, DELETE");
  if (refused) return refused;
  const withCatalog = !new URLSearchParams(rec.query).has("nocatalog");

  try {
    if (rec.method === "POST") {
      const grant = authenticate(rec.rawBody, ctx.dir, ctx.tokens);
      const token = ctx.tokens.issue(grant);
      if (grant.notAfterMs !== undefined) token.expiresAtMs = Math.min(token.expiresAtMs, grant.notAfterMs);
      const headers = { ...common };
      if (!(k.omitSubjectToken && consume(k))) headers["X-Subject-Token"] = token.value;
      return jsonReply(201, renderToken(token, ctx.dir, ctx.seed, base, withCatalog), headers);
    }
    const subject = checkSubject(ctx, rec);
    if (rec.method === "DELETE") {
      ctx.tokens.revoke(subject);
      return reply(204, common);
    }
    const body = renderToken(subject, ctx.dir, ctx.seed, base, withCatalog);
    return jsonReply(200, body, { ...common, "X-Subject-Token": subject.value });
  } catch (err) {
    if (err instanceof KeystoneError) return fail(err);
    throw err;
  }
}

/**
 * checkSubject applies Keystone's checks for GET/HEAD/DELETE: a valid X-Auth-Token (401), an
 * X-Subject-Token (403), a known and live subject (404), and the policy that a token's own user
 * may validate or revoke it (403).
 */
function checkSubject(ctx: IdentityContext, rec: RecordedRequest): TokenRecord {
  const action =
    rec.method === "DELETE"
      ? "identity:revoke_token"
      : rec.method === "HEAD"
        ? "identity:check_token"
        : "identity:validate_token";
  const caller = ctx.tokens.lookup(rec.headers["x-auth-token"]);
  if (caller.state !== "valid") throw unauthorized();
  const subjectValue = rec.headers["x-subject-token"];
  if (!subjectValue) throw forbidden(action);
  const subject = ctx.tokens.lookup(subjectValue);
  if (subject.state !== "valid") throw tokenNotFound(subject.state === "dead");
  if (subject.token.userId !== caller.token.userId) throw forbidden(action);
  return subject.token;
}
