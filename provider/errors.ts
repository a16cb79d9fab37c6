/**
 * Errors raised by costgate. One base class and a few subclasses, each with an `is*()` guard.
 *
 * Messages never contain a credential, a token or a response body that might echo one: every message,
 * `apiMessage`, `messages` and `requestId` passes through provider/text.ts (control characters out,
 * the run's secrets cut in every form, bounded length).
 */
import { cleanText, endpointText, scrubSecrets } from "./text";

/** The longest message of an error, in characters. */
const MESSAGE_MAX = 8000;

/** CostgateError is the base of every error costgate raises on purpose. */
export class CostgateError extends Error {
  override name = "CostgateError";
  constructor(message: string, options?: { cause?: unknown }) {
    // one line, no control character, no secret of the run, whatever the message was built from
    super(cleanText(message, { maxLength: MESSAGE_MAX }), options);
  }
}

/**
 * ConfigError is bad input or missing settings, found before any request is sent.
 * `field` names the argument, flag, environment variable or file key at fault.
 */
export class ConfigError extends CostgateError {
  override name = "ConfigError";
  readonly field: string;
  /** What is wrong and the fix, without the field's name: the message is `field: reason`. */
  readonly reason: string;
  constructor(field: string, reason: string, options?: { cause?: unknown }) {
    super(`${field}: ${reason}`, options);
    this.field = field;
    this.reason = reason;
  }
}

/**
 * SettingNames are a caller's words for the library's settings, as errors name them: by the library's
 * argument name (`authUrl`, `caCert`) unless the caller says otherwise. The costgate command passes its
 * flags (`{ authUrl: "--os-auth-url", caCert: "--os-cacert" }`, cli/names.ts), so one refusal names the
 * field its reader typed, and the fix in the same words. They travel with the transport settings.
 *
 * @example
 * resolveIdentitySettings({ names: { authUrl: "--auth" } }); // ConfigError "--auth: missing; give ..."
 */
export type SettingNames = Readonly<Record<string, string>>;

/**
 * settingName is how `names` spells `setting`: the caller's word, else `library` (by default the setting's
 * own name).
 */
export function settingName(names: SettingNames | undefined, setting: string, library = setting): string {
  const word = names && Object.hasOwn(names, setting) ? names[setting] : undefined;
  return typeof word === "string" && word !== "" ? word : library;
}

/** Which API an error came from. */
export type Service = "identity" | "billing" | "webhook";

/** Details shared by errors raised while talking to an endpoint. */
export interface RequestInfo {
  service: Service;
  method: string;
  /** The URL without query string or credentials. */
  url: string;
}

/**
 * HttpError is a response with an unexpected status: Keystone's `error.message`, the
 * `x-openstack-request-id` and the status code are kept for the person reading it.
 */
export class HttpError extends CostgateError {
  override name = "HttpError";
  readonly status: number;
  readonly request: RequestInfo;
  /** The message the API gave (Keystone `error.message`, GraphQL `errors[].message`), if any. */
  readonly apiMessage?: string;
  /** `x-openstack-request-id` (or `x-request-id`) of the response, if any. */
  readonly requestId?: string;
  constructor(
    message: string,
    init: { status: number; request: RequestInfo; apiMessage?: string; requestId?: string; cause?: unknown },
  ) {
    super(message, { cause: init.cause });
    this.status = init.status;
    this.request = init.request;
    this.apiMessage = init.apiMessage === undefined ? undefined : endpointText(init.apiMessage);
    this.requestId = shownRequestId(init.requestId);
  }
}

/** AuthError is a 401 (or Keystone's 401/403 on issue): the credentials were refused. */
export class AuthError extends HttpError {
  override name = "AuthError";
}

/** ResponseError is a response that arrived but cannot be used: not JSON, wrong shape, a missing header, GraphQL `errors`. */
export class ResponseError extends CostgateError {
  override name = "ResponseError";
  readonly status?: number;
  readonly request: RequestInfo;
  readonly requestId?: string;
  constructor(
    message: string,
    init: { request: RequestInfo; status?: number; requestId?: string; cause?: unknown },
  ) {
    super(message, { cause: init.cause });
    this.status = init.status;
    this.request = init.request;
    this.requestId = shownRequestId(init.requestId);
  }
}

/** The most GraphQL error messages an error keeps. */
const GRAPHQL_MESSAGES_MAX = 10;

/** shownRequestId is a request id from a response header as it may be shown: one short clean line. */
function shownRequestId(id: string | undefined): string | undefined {
  return id === undefined ? undefined : endpointText(id, [], 128);
}

/** GraphQLError is a billing response carrying GraphQL `errors` (also with HTTP 200); every message is kept. */
export class GraphQLError extends ResponseError {
  override name = "GraphQLError";
  readonly messages: string[];
  constructor(
    message: string,
    init: { request: RequestInfo; messages: string[]; status?: number; requestId?: string; cause?: unknown },
  ) {
    super(message, init);
    this.messages = init.messages.slice(0, GRAPHQL_MESSAGES_MAX).map((m) => endpointText(m));
  }
}

/** NetworkError is a request that got no response: refused, reset, DNS, TLS. */
export class NetworkError extends CostgateError {
  override name = "NetworkError";
  readonly request: RequestInfo;
  constructor(message: string, init: { request: RequestInfo; cause?: unknown }) {
    super(message, { cause: init.cause });
    this.request = init.request;
  }
}

/** TimeoutError is a request that did not finish within its connect, headers or body timeout. */
export class TimeoutError extends NetworkError {
  override name = "TimeoutError";
}

/**
 * LimitError is a cap on work reached: a run sent as many requests as its `maxRequests` allows. It is a
 * ConfigError of that setting: the input asked for too much (a typo'd period, a huge project list).
 */
export class LimitError extends ConfigError {
  override name = "LimitError";
}

/**
 * redactSecrets cuts each secret out of a text that came from a server (an error message may echo
 * what it was sent), in every form provider/text.ts knows: raw, JSON-escaped, URL-encoded, base64 and
 * hex (also inside a larger encoded run), and long fragments. Values under 3 characters are left:
 * cutting them would shred the text.
 */
export function redactSecrets(text: string, secrets: string[]): string {
  return scrubSecrets(text, secrets).text;
}

/**
 * isZodWording tells a message zod wrote ("Invalid input: expected array, received object") from one
 * a schema of costgate's gave: zod's are never shown.
 * @internal
 */
export function isZodWording(message: string): boolean {
  return /^(Invalid|Too (big|small)|Unrecognized|Expected)\b/.test(message);
}

/** isCostgateError tells whether `e` is any error costgate raised on purpose. */
export function isCostgateError(e: unknown): e is CostgateError {
  return e instanceof CostgateError;
}
/** isConfigError tells whether `e` is bad input or settings. */
export function isConfigError(e: unknown): e is ConfigError {
  return e instanceof ConfigError;
}
/** isLimitError tells whether `e` is a cap on requests reached. */
export function isLimitError(e: unknown): e is LimitError {
  return e instanceof LimitError;
}
/** isHttpError tells whether `e` is an unexpected HTTP status. */
export function isHttpError(e: unknown): e is HttpError {
  return e instanceof HttpError;
}
/** isAuthError tells whether `e` is refused credentials. */
export function isAuthError(e: unknown): e is AuthError {
  return e instanceof AuthError;
}
/** isResponseError tells whether `e` is an unusable response. */
export function isResponseError(e: unknown): e is ResponseError {
  return e instanceof ResponseError;
}
/** isGraphQLError tells whether `e` is a GraphQL `errors` response. */
export function isGraphQLError(e: unknown): e is GraphQLError {
  return e instanceof GraphQLError;
}
/** isNetworkError tells whether `e` is a request that got no response (timeouts included). */
export function isNetworkError(e: unknown): e is NetworkError {
  return e instanceof NetworkError;
}
/** isTimeoutError tells whether `e` is a timeout. */
export function isTimeoutError(e: unknown): e is TimeoutError {
  return e instanceof TimeoutError;
}
