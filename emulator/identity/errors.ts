/**
 * Keystone's error bodies: `{"error":{"code","message","title"}}` (Keystone API reference,
 * "Errors"), with the messages a real Keystone (python3-keystone 22, captured under
 * test/keystone/) sends.
 */

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Request Entity Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** KeystoneError is an error answer; `extra` goes inside `error` (e.g. `identity` of a 401). */
export class KeystoneError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** title is Keystone's title for the code. */
  get title(): string {
    return TITLES[this.code] ?? "Error";
  }

  /** body is the JSON error document. */
  body(): { error: Record<string, unknown> } {
    return { error: { code: this.code, ...this.extra, message: this.message, title: this.title } };
  }
}

/** The message of every 401 whose detail Keystone hides. */
export const UNAUTHORIZED_MESSAGE = "The request you have made requires authentication.";

const NOT_COMPLY =
  "The server could not comply with the request since it is either malformed or otherwise incorrect. The client is assumed to be in error.";

/** unauthorized is Keystone's generic 401. */
export function unauthorized(): KeystoneError {
  return new KeystoneError(401, UNAUTHORIZED_MESSAGE);
}

/** expecting is Keystone's ValidationError: "Expecting to find X in Y. ..." (400). */
export function expecting(attribute: string, target: string): KeystoneError {
  return new KeystoneError(400, `Expecting to find ${attribute} in ${target}. ${NOT_COMPLY}`);
}

/** forbidden is the 403 of a policy check, e.g. `identity:validate_token`. */
export function forbidden(action: string): KeystoneError {
  return new KeystoneError(403, `You are not authorized to perform the requested action: ${action}.`);
}

/** tokenNotFound is the 404 of an unknown ("Could not recognize Fernet token") or dead token. */
export function tokenNotFound(known: boolean): KeystoneError {
  return new KeystoneError(404, known ? "Failed to validate token" : "Could not recognize Fernet token");
}

/** genericStatus is an error for an injected status: Keystone's shape, the status's title as message. */
export function genericStatus(code: number): KeystoneError {
  if (code === 401) return unauthorized();
  const err = new KeystoneError(code, "");
  err.message = err.title;
  return err;
}
