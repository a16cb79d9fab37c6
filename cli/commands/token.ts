/**
 * `costgate token`: issue an OS_TOKEN and print it (so `export OS_TOKEN=$(costgate token)` works).
 */
import { issueToken } from "../../provider/identity/tokens";
import { resolveIdentitySettings } from "../../provider/settings";
import { safeJson } from "../../provider/text";
import { withIdentityFlags } from "../identity-options";
import type { TokenOptions } from "../options/identity";

/** tokenCommand issues a token and prints it, or with --json what Keystone says of it. */
export async function tokenCommand(opts: TokenOptions): Promise<number> {
  const s = withIdentityFlags(opts.identity, (a) => resolveIdentitySettings(a));
  const token = await issueToken({ authUrl: s.authUrl, transport: s.transport }, s.auth);
  if (opts.json) {
    const out = {
      token: token.id,
      expiresAt: token.expiresAt,
      issuedAt: token.issuedAt ?? null,
      methods: token.methods,
      user: token.user,
      project: token.project ?? null,
      roles: token.roles,
      catalog: token.catalog,
      auditIds: token.auditIds,
      applicationCredential: token.applicationCredential ?? null,
    };
    process.stdout.write(`${safeJson(out, 2)}\n`);
  } else {
    process.stdout.write(`${token.id}\n`);
  }
  return 0;
}
