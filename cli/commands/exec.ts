/**
 * `costgate exec [identity flags] [--grace-period S] -- CMD [ARGS...]`: issue a token, run CMD with it,
 * and revoke it however the run ends — CMD exits or fails to start, costgate fails, or costgate gets
 * SIGHUP, SIGINT, SIGQUIT or SIGTERM (passed on to CMD, which is killed after the grace period).
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { Token } from "../../provider/identity/results";
import { issueToken, revokeToken } from "../../provider/identity/tokens";
import { type IdentitySettings, resolveIdentitySettings } from "../../provider/settings";
import { UsageError } from "../errors";
import { withIdentityFlags } from "../identity-options";
import type { ExecOptions } from "../options/identity";

/** The signals that end a run on POSIX; Windows only delivers SIGINT, SIGBREAK (Ctrl+Break) and SIGHUP. */
const ENDING_SIGNALS: NodeJS.Signals[] =
  process.platform === "win32"
    ? ["SIGINT", "SIGBREAK", "SIGHUP"]
    : ["SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM"];
/** Signals a terminal sends to its whole foreground process group, CMD included. */
const KEYBOARD_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGQUIT"];
/** The revocation gets this long in all (retries included) before costgate gives up and says so. */
export const REVOKE_TIMEOUT_MS = 10_000;

/**
 * Variables kept from costgate's environment: where and how to connect, never who is connecting. Every
 * other `OS_*` variable (passwords, user names, domains, scopes, application credentials, `OS_CLOUD`,
 * tokens and auth types of another session, and any a future client adds) is removed.
 */
const KEPT =
  /^OS_(REGION_NAME|INTERFACE|ENDPOINT_TYPE|CACERT|CERT|KEY|INSECURE|(?!IDENTITY_)[A-Z0-9_]+_API_VERSION)$/;

/**
 * childEnvironment is what CMD gets: costgate's environment without any credential, plus the token and
 * what each kind of token needs (README "Tokens in CI"):
 *
 * - from a password: `OS_AUTH_TYPE=v3token` and `OS_PROJECT_ID` of the token's project. keystoneauth
 *   (openstack, openstacksdk) exchanges the token for one of that project and gets the catalog; gophercloud
 *   (Terraform, pulumi-openstack) does the same.
 * - from an application credential: no scope at all, so gophercloud passes the token through as it is
 *   (a scope would make it ask for a new token, which Keystone refuses for a delegated token), and
 *   `OS_AUTH_TYPE=admin_token` with `OS_ENDPOINT` = the identity address, the one keystoneauth plugin that
 *   uses a token without exchanging it: identity calls only (`openstack region list`).
 */
export function childEnvironment(
  parent: NodeJS.ProcessEnv,
  s: Pick<IdentitySettings, "authUrl" | "auth" | "transport" | "regionName" | "interface">,
  token: Pick<Token, "id" | "project">,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(parent)) {
    if (!name.toUpperCase().startsWith("OS_") || KEPT.test(name)) env[name] = value;
  }
  env["OS_AUTH_URL"] = s.authUrl;
  env["OS_TOKEN"] = token.id;
  env["OS_IDENTITY_API_VERSION"] = "3";
  if (s.regionName) env["OS_REGION_NAME"] = s.regionName;
  if (s.interface) env["OS_INTERFACE"] = s.interface;
  if (s.transport.caCert) env["OS_CACERT"] = s.transport.caCert;
  if (s.transport.insecure) env["OS_INSECURE"] = "true";
  if (s.auth.type === "password") {
    env["OS_AUTH_TYPE"] = "v3token";
    if (token.project) env["OS_PROJECT_ID"] = token.project.id;
  } else {
    env["OS_AUTH_TYPE"] = "admin_token";
    env["OS_ENDPOINT"] = s.authUrl;
  }
  return env;
}

/** say writes a line on stderr; after a hangup the terminal may be gone, which must not stop the revoke. */
function say(line: string): void {
  try {
    process.stderr.write(`${line}\n`);
  } catch {
    // nowhere to say it
  }
}

/** What a run has been told: the first ending signal, and what to do with the next one. */
interface Signals {
  received?: NodeJS.Signals;
  handle: (signal: NodeJS.Signals) => void;
}

/**
 * execCommand runs `costgate exec`. Exit code: CMD's; 128 + the signal's number when costgate got one
 * (whatever CMD did then) or when a signal ended CMD; 127 when CMD is not found, 126 when it cannot be run;
 * 2 bad usage and 3 no token, both before CMD starts.
 */
export async function execCommand(command: string[], o: ExecOptions): Promise<number> {
  const [cmd, ...args] = command;
  if (!cmd) {
    throw new UsageError(
      "exec: give the command to run after --, e.g. costgate exec -- openstack region list",
    );
  }
  const grace = o.graceSeconds;
  const s = withIdentityFlags(o.identity, (a) => resolveIdentitySettings(a));
  const ep = { authUrl: s.authUrl, transport: s.transport };

  // From here on a signal never ends costgate at once: it is remembered (and passed on once CMD runs),
  // and the token, once issued, is revoked before costgate exits.
  process.stderr.on("error", () => {});
  const signals: Signals = { handle: (signal) => remember(signals, signal) };
  const listener = (signal: NodeJS.Signals) => signals.handle(signal);
  for (const signal of ENDING_SIGNALS) process.on(signal, listener);
  let token: Token | undefined;
  try {
    token = await issueToken(ep, s.auth);
    const code = signals.received
      ? 0
      : await run(cmd, args, childEnvironment(process.env, s, token), grace, signals);
    return signals.received ? 128 + signalNumber(signals.received) : code;
  } finally {
    if (token) await revokeWithin(ep, token);
    for (const signal of ENDING_SIGNALS) process.off(signal, listener);
  }
}

function remember(signals: Signals, signal: NodeJS.Signals): void {
  signals.received ??= signal;
}

/**
 * run starts CMD and resolves with its exit code. A signal is passed on, and CMD killed (SIGKILL) when it
 * has not ended `grace` seconds after the first one.
 *
 * Without a terminal CMD leads its own process group, so a signal reaches it and its children once, from
 * costgate, and the kill takes them all. With a terminal CMD stays in the foreground group, where it can
 * read the terminal and gets Ctrl+C and Ctrl+\ from it directly: those are not sent a second time (a
 * second SIGINT makes Terraform abort instead of stopping cleanly). Windows has no signals to pass on (the
 * console sends Ctrl+C to CMD too); there the kill is TerminateProcess.
 */
function run(file: string, argv: string[], env: NodeJS.ProcessEnv, grace: number, signals: Signals) {
  const windows = process.platform === "win32";
  const terminal = Boolean(process.stdin.isTTY || process.stdout.isTTY || process.stderr.isTTY);
  const ownGroup = !windows && !terminal;
  return new Promise<number>((resolve) => {
    let killTimer: NodeJS.Timeout | undefined;
    let settled = false;
    const child = spawn(file, argv, { stdio: "inherit", env, detached: ownGroup });
    const send = (signal: NodeJS.Signals) => {
      try {
        if (ownGroup && child.pid !== undefined) process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        // already gone
      }
    };
    const finish = (code: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(killTimer);
      signals.handle = (signal) => remember(signals, signal);
      resolve(code);
    };
    signals.handle = (signal) => {
      remember(signals, signal);
      if (!windows && !(terminal && KEYBOARD_SIGNALS.includes(signal))) send(signal);
      killTimer ??= setTimeout(() => {
        say(`costgate: ${file} did not end within ${grace} s of ${signals.received}; killing it`);
        send("SIGKILL");
      }, grace * 1000);
    };
    child.on("error", (e: NodeJS.ErrnoException) => {
      say(
        `costgate: error: exec: cannot run ${file}: ${e.code === "ENOENT" ? "not found on PATH" : e.message}`,
      );
      finish(e.code === "ENOENT" ? 127 : 126);
    });
    child.on("exit", (n, signal) => finish(n ?? 128 + (signal ? signalNumber(signal) : 0)));
  });
}

function signalNumber(signal: NodeJS.Signals): number {
  return (constants.signals as Record<string, number>)[signal] ?? 0;
}

/** revokeWithin revokes the token, giving up after {@link REVOKE_TIMEOUT_MS}; a failure is said, not thrown. */
async function revokeWithin(ep: { authUrl: string; transport: IdentitySettings["transport"] }, token: Token) {
  try {
    await revokeToken(
      { authUrl: ep.authUrl, transport: { ...ep.transport, signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS) } },
      token.id,
    );
  } catch (e) {
    say(
      `costgate: error: exec: the token could not be revoked, and stays valid until ${token.expiresAt}: ${e instanceof Error ? e.message : String(e)}; revoke it with costgate token revoke if you still have it`,
    );
  }
}
