/**
 * The one place that talks HTTP, on undici: TLS settings, proxies, timeouts, retries, redaction, debug
 * logging and the mapping of transport failures to costgate's errors. Callers decide what a status
 * means. undici is loaded at the first request.
 */
export { describeBody, errorMessageOf, parseJson, redactUrl, statusHint } from "./bodies";
// the retry policy and transport resolution helpers are imported from their own modules
export {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_RETRY,
  DEFAULT_TIMEOUTS,
  MAX_TIMEOUT_MS,
  type RequestBudget,
  type RetryOptions,
  type Timeouts,
  type TransportOptions,
} from "./options";
export { bypassesProxy, type ProxyChoice, parseProxy, proxyFor } from "./proxy";
export { debugEnabled, EMULATOR_HEADER, onEmulatorAnswer, send } from "./send";
export type { HttpRequest, HttpResponse } from "./types";
