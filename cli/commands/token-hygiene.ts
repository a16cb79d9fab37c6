/**
 * Token hygiene for CI: `costgate token revoke` ends a token before its expiry, and `costgate exec`
 * issues one for a single command and revokes it when the command ends, whatever the end.
 */
import { spawn } from "node:child_process";
import { type IdentityEndpoint, issueToken, revokeToken } from "../../provider/identity/tokens";
import { resolveIdentityEndpoint, resolveIdentitySettings } from "../../provider/settings";
import { UsageError } from "../errors";
import { withIdentityFlags } from "../identity-options";

type Opts = Record<string, string | boolean | undefined>;

/** readStdin reads standard input to its end. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * tokenToRevoke picks the token: the argument (`-` reads standard input), else `OS_TOKEN`, else
 * standard input when it is piped. Never printed.
 */
async function tokenToRevoke(arg: string | undefined): Promise<string> {
  let raw: string | undefined;
  let from = "the argument";
  if (arg === "-") {
    raw = await readStdin();
    from = "standard input";
  } else if (arg !== undefined) {
    raw = arg;
  } else if (process.env["OS_TOKEN"]) {
    raw = process.env["OS_TOKEN"];
    from = "OS_TOKEN";
  } else if (!process.stdin.isTTY) {
    raw = await readStdin();
    from = "standard input";
  }
  if (raw === undefined) {
    throw new UsageError(
      "token revoke: give the token: as an argument, - to read it from standard input, or in OS_TOKEN",
    );
  }
  const token = raw.trim();
  if (token === "" || /\s/.test(token)) {
    throw new UsageError(
      `token revoke: ${from} holds ${token === "" ? "no token" : "more than one word"}; give one token (costgate token prints one)`,
    );
  }
  return token;
}

/** revokeCommand is `costgate token revoke [TOKEN]`: the token revokes itself (no credential needed). */
export async function revokeCommand(arg: string | undefined, o: Opts): Promise<number> {
  const ep: IdentityEndpoint = withIdentityFlags(o, (a) => resolveIdentityEndpoint(a));
  const token = await tokenToRevoke(arg);
  const revoked = await revokeToken(ep, token);
  process.stderr.write(
    revoked
      ? "costgate: the token is revoked\n"
      : "costgate: the token was already invalid (revoked or expired)\n",
  );
  return 0;
}

/** The variables a child gets instead of the credential: the token and where it is valid. */
const CREDENTIAL_VARIABLES = [
  "OS_PASSWORD",
  "OS_APPLICATION_CREDENTIAL_SECRET",
  "OS_APPLICATION_CREDENTIAL_ID",
  "OS_APPLICATION_CREDENTIAL_NAME",
  "OS_AUTH_TYPE",
];

/**
 * execCommand is `costgate exec [identity flags] -- CMD [ARGS...]`: issues a token, runs CMD with
 * `OS_TOKEN` and `OS_AUTH_URL` set (and the credential variables removed), revokes the token when CMD
 * ends — also when it fails, and when costgate gets SIGINT or SIGTERM, which it passes on to CMD — and
 * exits with CMD's code (128 + the signal's number when a signal ended it).
 */
export async function execCommand(command: string[], o: Opts): Promise<number> {
  const [cmd, ...args] = command;
  if (!cmd) {
    throw new UsageError(
      "exec: give the command to run after --, e.g. costgate exec -- openstack server list",
    );
  }
  const s = withIdentityFlags(o, (a) => resolveIdentitySettings(a));
  const ep: IdentityEndpoint = { authUrl: s.authUrl, transport: s.transport };
  const token = await issueToken(ep, s.auth);
  const env: NodeJS.ProcessEnv = { ...process.env, OS_TOKEN: token.id, OS_AUTH_URL: s.authUrl };
  for (const name of CREDENTIAL_VARIABLES) delete env[name];

  // from here to the revocation, SIGINT and SIGTERM go to the command, never end costgate itself
  let onInt = () => {};
  let onTerm = () => {};
  process.on("SIGINT", () => onInt());
  process.on("SIGTERM", () => onTerm());
  const code = await new Promise<number>((resolve) => {
    const child = spawn(cmd, args, { stdio: "inherit", env });
    onInt = () => child.kill("SIGINT");
    onTerm = () => child.kill("SIGTERM");
    const done = (n: number) => {
      onInt = () => {};
      onTerm = () => {};
      resolve(n);
    };
    child.on("error", (e: NodeJS.ErrnoException) => {
      process.stderr.write(
        `costgate: error: exec: cannot run ${cmd}: ${e.code === "ENOENT" ? "not found on PATH" : e.message}\n`,
      );
      done(e.code === "ENOENT" ? 127 : 126);
    });
    child.on("exit", (n, signal) => {
      const signals: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
      done(n ?? 128 + (signal ? (signals[signal] ?? 0) : 0));
    });
  });

  try {
    await revokeToken(ep, token.id);
  } catch (e) {
    process.stderr.write(
      `costgate: error: exec: the token could not be revoked, and stays valid until ${token.expiresAt}: ${e instanceof Error ? e.message : String(e)}\n`,
    );
  }
  return code;
}
