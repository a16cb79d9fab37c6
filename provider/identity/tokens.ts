/**
 * Token operations of Keystone v3 `/v3/auth/tokens`: Create (issue), Validate (GET), Check (HEAD)
 * and Revoke (DELETE). docs/API.md#issue-a-token-with-a-password, docs/API.md#issue-a-token-with-an-application-credential; Keystone API reference "Authentication and token management".
 */
import { AuthError, HttpError, ResponseError } from "../errors";
import { describeBody, type HttpResponse, parseJson, send, statusHint, type TransportOptions } from "../http";
import { endpointText, scrubValue } from "../text";
import { type AuthMethod, authBody, describeAuth, validateAuth } from "./auth";
import { type Token, type TokenInfo, tokenBodySchema, toTokenInfo } from "./results";
import { normalizeAuthUrl, tokensUrl } from "./urls";

/** Where Keystone is and how to reach it. */
export interface IdentityEndpoint {
  /** The identity base address; `/v3` is appended when missing. */
  authUrl: string;
  transport?: TransportOptions;
}

/** keystoneMessage is Keystone's `error.message`, raw: decide with it, show it only through endpointText. */
function keystoneMessage(res: HttpResponse): string | undefined {
  const body = parseJson(res.text) as { error?: { message?: unknown } } | undefined;
  const msg = body?.error?.message;
  return typeof msg === "string" ? msg : undefined;
}

/**
 * statusError is the error of an unexpected status. Keystone's message is the server's text: its
 * first line, cleaned and bounded, withheld when it echoes a credential of the request or the run.
 */
function statusError(
  res: HttpResponse,
  given: string,
  secrets: string[],
  auth = res.status === 401,
): HttpError {
  const said = keystoneMessage(res);
  const apiMessage =
    said === undefined ? undefined : endpointText((said.split("\n")[0] ?? said).trim(), secrets);
  // through a proxy, a refusal may be the proxy's own answer, whatever it looks like: both are said
  const viaProxy = res.proxy !== undefined && (res.status === 403 || res.status === 407);
  const hint =
    given && viaProxy ? `${given}; or ${statusHint(res, "Keystone")}` : given || statusHint(res, "Keystone");
  const detail = apiMessage ? `: ${apiMessage}` : ` with ${describeBody(res)}`;
  const rid = res.requestId ? ` (request id ${res.requestId})` : "";
  const message = `Keystone answered ${res.status} to ${res.info.method} ${res.info.url}${detail}${hint ? ` — ${hint}` : ""}${rid}`;
  const init = { status: res.status, request: res.info, apiMessage, requestId: res.requestId };
  return auth ? new AuthError(message, init) : new HttpError(message, init);
}

/** The longest X-Subject-Token taken: Fernet tokens are 180–250 characters, JWS about 300–600. */
export const MAX_TOKEN_CHARS = 8192;
/** The furthest ahead an `expires_at` may be: Keystone's default is an hour, operators choose days. */
export const MAX_TOKEN_LIFETIME_MS = 366 * 24 * 3600_000;
/** token68 (RFC 7235): what Fernet, JWS, UUID and PKIZ tokens are made of; no space, comma or control. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

function refused(res: HttpResponse, what: string): ResponseError {
  return new ResponseError(
    `Keystone's answer to ${res.info.method} ${res.info.url} is refused: ${what}; nothing was stored. Is this a Keystone v3 endpoint, and is the path to it (proxy, load balancer) passing answers unchanged?`,
    { request: res.info, status: res.status, requestId: res.requestId },
  );
}

/**
 * parseTokenBody reads and checks a token body (see results.ts for the rules); `issued` adds the checks
 * of a new token: its `expires_at` is in the future. Either way it is at most a year away.
 */
function parseTokenBody(res: HttpResponse, issued: boolean, now = Date.now()): TokenInfo {
  const json = parseJson(res.text);
  if (json === undefined) {
    throw new ResponseError(
      `Keystone answered ${res.status} to ${res.info.method} ${res.info.url} with ${describeBody(res)}, not a token body; check that the address is Keystone's /v3`,
      { request: res.info, status: res.status, requestId: res.requestId },
    );
  }
  const parsed = tokenBodySchema().safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // the path holds the server's keys: shown short and clean
    const where = issue?.path.length ? endpointText(issue.path.join("."), [], 100) : "token";
    throw refused(res, `${where} ${issue?.message ?? "is not as expected"}`);
  }
  // names, roles, audit ids and the catalog are stored in plaintext state and printed: an endpoint that
  // echoes the request into them must not put a credential there
  const info = scrubValue(toTokenInfo(parsed.data));
  const expires = Date.parse(info.expiresAt);
  if (issued && expires <= now) throw refused(res, "token.expires_at is in the past for a token just issued");
  if (expires > now + MAX_TOKEN_LIFETIME_MS) throw refused(res, "token.expires_at is more than a year away");
  return info;
}

/** subjectTokenOf reads the one X-Subject-Token of an issue answer and checks its form. */
function subjectTokenOf(res: HttpResponse): string {
  const id = res.headers["x-subject-token"];
  if (!id) {
    throw new ResponseError(
      `Keystone answered ${res.status} to POST ${res.info.url} without an X-Subject-Token header; a proxy may be stripping it`,
      { request: res.info, status: res.status, requestId: res.requestId },
    );
  }
  if (res.repeatedHeaders?.includes("x-subject-token"))
    throw refused(res, "it has more than one X-Subject-Token header");
  if (id.length > MAX_TOKEN_CHARS)
    throw refused(res, `the X-Subject-Token header is longer than ${MAX_TOKEN_CHARS} characters`);
  if (!TOKEN68.test(id))
    throw refused(
      res,
      "the X-Subject-Token header is not a token (only letters, digits and - . _ ~ + / = are taken; no spaces, commas or control characters)",
    );
  return id;
}

/** secretOf is the credential of an auth method: Keystone's 400 messages can echo the request body. */
function secretOf(m: AuthMethod): string {
  return m.type === "password" ? m.password : m.applicationCredentialSecret;
}

function authHint(m: AuthMethod): string {
  return m.type === "application_credential"
    ? "authentication failed: check the application credential id and secret (OS_APPLICATION_CREDENTIAL_ID, OS_APPLICATION_CREDENTIAL_SECRET), and that the credential has not expired or been deleted"
    : "authentication failed: check the user name, user domain, password and project scope (OS_USERNAME, OS_USER_DOMAIN_NAME, OS_PASSWORD, OS_PROJECT_NAME, OS_PROJECT_DOMAIN_ID)";
}

/**
 * issueToken obtains a new token (POST /v3/auth/tokens). The token is the `X-Subject-Token`
 * response header; a 201 without it is an error.
 *
 * @example
 * const token = await issueToken(
 *   { authUrl: "https://identity.example/v3" },
 *   { type: "application_credential", applicationCredentialId: id, applicationCredentialSecret: secret },
 * );
 */
export async function issueToken(endpoint: IdentityEndpoint, method: AuthMethod): Promise<Token> {
  const m = validateAuth(method);
  const authUrl = normalizeAuthUrl(endpoint.authUrl);
  const res = await send({
    service: "identity",
    method: "POST",
    url: tokensUrl(authUrl),
    json: authBody(m),
    secrets: [secretOf(m)],
    transport: endpoint.transport,
    // Issuing is not idempotent: retried only when no response arrived (refused, reset before one).
    idempotent: false,
  });
  if (res.status !== 201 && res.status !== 200) {
    // Keystone answers 401 for a wrong secret or password, and 404 with its own error body for an
    // unknown application credential; a 404 without one means this is not Keystone's token API.
    const refused =
      res.status === 401 || res.status === 403 || (res.status === 404 && keystoneMessage(res) !== undefined);
    const hint = refused
      ? `${authHint(m)} (${describeAuth(m)})`
      : res.status === 404
        ? "no token API at this address: check the identity URL (it ends in /v3)"
        : res.status === 400
          ? "Keystone refused the request body; check the credential settings"
          : "";
    throw statusError(res, hint, [secretOf(m)], refused);
  }
  const id = subjectTokenOf(res);
  return { id, ...parseTokenBody(res, true) };
}

type TokenOutcome = { res: HttpResponse; valid: boolean };

/**
 * subjectRequest sends GET, HEAD or DELETE /v3/auth/tokens about `subjectToken`. A 404 (or a 401 for
 * a token speaking for itself) means Keystone no longer accepts it; any other failure throws, with
 * both tokens scrubbed from the error.
 */
async function subjectRequest(
  endpoint: IdentityEndpoint,
  method: "GET" | "HEAD" | "DELETE",
  subjectToken: string,
  authToken: string,
): Promise<TokenOutcome> {
  const res = await send({
    service: "identity",
    method,
    url: tokensUrl(normalizeAuthUrl(endpoint.authUrl)),
    headers: { "x-auth-token": authToken, "x-subject-token": subjectToken },
    transport: endpoint.transport,
    // A revoke is retried only when no response arrived; a 404 after a lost answer still reads as "already gone".
    ...(method === "DELETE" ? { idempotent: false } : {}),
  });
  if (res.status >= 200 && res.status < 300) return { res, valid: true };
  if (res.status === 404 || (res.status === 401 && authToken === subjectToken)) return { res, valid: false };
  throw statusError(res, "", [subjectToken, authToken]);
}

/**
 * validateToken asks Keystone about `subjectToken` (GET /v3/auth/tokens), authenticating with
 * `authToken` (a token may validate itself). Returns null when Keystone no longer accepts it (404).
 */
export async function validateToken(
  endpoint: IdentityEndpoint,
  subjectToken: string,
  authToken: string = subjectToken,
): Promise<TokenInfo | null> {
  const out = await subjectRequest(endpoint, "GET", subjectToken, authToken);
  return out.valid ? parseTokenBody(out.res, false) : null;
}

/** checkToken is the cheap form of validateToken (HEAD /v3/auth/tokens): true when the token is valid. */
export async function checkToken(
  endpoint: IdentityEndpoint,
  subjectToken: string,
  authToken: string = subjectToken,
): Promise<boolean> {
  return (await subjectRequest(endpoint, "HEAD", subjectToken, authToken)).valid;
}

/**
 * revokeToken revokes `subjectToken` (DELETE /v3/auth/tokens). Returns false when the token was
 * already invalid (404, or a 401 for a token revoking itself), which is not an error.
 */
export async function revokeToken(
  endpoint: IdentityEndpoint,
  subjectToken: string,
  authToken: string = subjectToken,
): Promise<boolean> {
  return (await subjectRequest(endpoint, "DELETE", subjectToken, authToken)).valid;
}
