/**
 * Token hygiene for CI: `costgate token revoke` ends a token before its expiry (`costgate exec`, in
 * exec.ts, issues one for a single command and revokes it when the command ends, whatever the end).
 */
import { readStreamBounded } from "../../provider/files";
import { type IdentityEndpoint, revokeToken } from "../../provider/identity/tokens";
import { resolveIdentityEndpoint } from "../../provider/settings";
import { UsageError } from "../errors";
import { withIdentityFlags } from "../identity-options";
import type { IdentityOptions } from "../options/identity";

/** readStdin reads standard input to its end: a token, so no more than 1 MiB (COSTGATE_MAX_INPUT_SIZE). */
function readStdin(): Promise<string> {
  return readStreamBounded(process.stdin, { field: "token revoke", kind: "settings" });
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
export async function revokeCommand(arg: string | undefined, o: IdentityOptions): Promise<number> {
  const ep: IdentityEndpoint = withIdentityFlags(o.identity, (a) => resolveIdentityEndpoint(a));
  const token = await tokenToRevoke(arg);
  const revoked = await revokeToken(ep, token);
  process.stderr.write(
    revoked
      ? "costgate: the token is revoked\n"
      : "costgate: the token was already invalid (revoked or expired)\n",
  );
  return 0;
}
