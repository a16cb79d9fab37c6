/**
 * The OpenStack identity flags, as python-openstackclient spells them.
 */
import type { Command } from "commander";
import { IDENTITY_FIELDS } from "../provider/identity/fields";
import type { IdentityArgs } from "../provider/settings";
import { CLI_NAMES, identityFlagOf } from "./names";
import type { Flags } from "./options/parse";
import { addTransportOptions, transportArgsFrom } from "./transport-options";

/** The identity fields the command line takes, each with its flag (provider/identity/fields.ts). */
const FLAGS = IDENTITY_FIELDS.filter((f) => f.flag).map((f) => ({ field: f, flag: identityFlagOf(f) }));

/** IDENTITY_FLAGS are the identity flags every identity command takes (`--os-auth-url`, ...). */
export const IDENTITY_FLAGS: readonly string[] = FLAGS.map((f) => f.flag);

/** addIdentityOptions adds the --os-* flags, --timeout and --retries to a command. */
export function addIdentityOptions(cmd: Command): Command {
  for (const { field, flag } of FLAGS) {
    if (field.name === "insecure") {
      cmd.option(flag, field.words);
      continue;
    }
    const value = field.name.endsWith("Url")
      ? "url"
      : field.name === "caCert"
        ? "file"
        : field.secret
          ? "secret"
          : /Id$/.test(field.name)
            ? "id"
            : field.name === "authType"
              ? "type"
              : "name";
    const env = `env ${field.env[0]}`;
    cmd.option(
      `${flag} <${value}>`,
      field.secret ? `${field.words}; ${env} (prefer the env: flags show in ps)` : `${field.words} (${env})`,
    );
  }
  return addTransportOptions(cmd);
}

/** The commander key of a flag: --os-auth-url → osAuthUrl. */
const keyOf = (flag: string) => flag.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** identityArgsFrom turns parsed flags into IdentityArgs (flags win over env and clouds.yaml). */
export function identityArgsFrom(o: Flags): IdentityArgs {
  // each field's name is an IdentityArgs key (provider/identity/fields.ts), its value a text or `insecure`
  const args: Record<string, string | true> = {};
  for (const { field, flag } of FLAGS) {
    const v = o[keyOf(flag)];
    if (field.name === "insecure") {
      if (v === true) args[field.name] = true;
    } else if (typeof v === "string") args[field.name] = v;
  }
  return { ...(args as IdentityArgs), ...transportArgsFrom(o) };
}

/**
 * withIdentityFlags resolves identity settings from the arguments the flags gave, with the command
 * line's words for them (cli/names.ts): a refused setting is named by the flag the user typed
 * (`--os-cloud`), not by the library's argument (`cloud`).
 */
export function withIdentityFlags<T>(args: IdentityArgs, resolve: (args: IdentityArgs) => T): T {
  return resolve({ ...args, names: CLI_NAMES });
}
