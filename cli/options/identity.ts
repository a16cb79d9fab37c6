/**
 * The typed options of the identity commands (`token`, `token revoke`, `exec`), read from their flags
 * before any request: the identity flags become the library's IdentityArgs (cli/identity-options.ts
 * spells them), the rest is checked here.
 */
import type { IdentityArgs } from "../../provider/settings";
import { identityArgsFrom } from "../identity-options";
import { type Flags, seconds, text } from "./parse";

/** What every identity command knows: the identity arguments its flags give (env and clouds.yaml come later). */
export interface IdentityOptions {
  identity: IdentityArgs;
}

/** `costgate token`'s options. */
export interface TokenOptions extends IdentityOptions {
  /** --json: print what Keystone says of the token. */
  json: boolean;
}

/** tokenOptions reads `costgate token`'s flags. */
export function tokenOptions(o: Flags): TokenOptions {
  return { identity: identityArgsFrom(o), json: o["json"] === true };
}

/** revokeOptions reads `costgate token revoke`'s flags (the token is its argument). */
export function revokeOptions(o: Flags): IdentityOptions {
  return { identity: identityArgsFrom(o) };
}

/** Default grace period between passing a signal on and killing the command, in seconds. */
export const DEFAULT_GRACE_SECONDS = 10;
/** The longest grace period, in seconds. */
export const MAX_GRACE_SECONDS = 3600;

/** `costgate exec`'s options. */
export interface ExecOptions extends IdentityOptions {
  /** Seconds the command gets to end after a signal before it is killed. */
  graceSeconds: number;
}

/** execOptions reads `costgate exec`'s flags: the identity flags and --grace-period. */
export function execOptions(o: Flags, env: NodeJS.ProcessEnv = process.env): ExecOptions {
  return { graceSeconds: graceSeconds(text(o, "gracePeriod"), env), identity: identityArgsFrom(o) };
}

/** graceSeconds reads `--grace-period` or `COSTGATE_EXEC_GRACE_SECONDS`: seconds, 0 to 3600. */
export function graceSeconds(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): number {
  const [raw, from] =
    flag !== undefined
      ? [flag, "--grace-period"]
      : [env["COSTGATE_EXEC_GRACE_SECONDS"], "COSTGATE_EXEC_GRACE_SECONDS"];
  if (raw === undefined || raw.trim() === "") return DEFAULT_GRACE_SECONDS;
  const ms = seconds(raw, from, MAX_GRACE_SECONDS * 1000, {
    allowZero: true,
    refused: (v) =>
      `exec: ${from} is "${v}"; give the seconds a command gets to end after a signal, from 0 to ${MAX_GRACE_SECONDS} (default ${DEFAULT_GRACE_SECONDS})`,
  });
  return ms / 1000;
}
