/**
 * The OpenStack identity flags, as python-openstackclient spells them.
 */
import type { Command } from "commander";
import { ConfigError, isConfigError } from "../provider/errors";
import { IDENTITY_FIELDS } from "../provider/identity/fields";
import type { IdentityArgs } from "../provider/settings";
import type { Flags } from "./options/parse";
import { addTransportOptions, transportArgsFrom } from "./transport-options";

/**
 * flagOf spells an identity field's flag as python-openstackclient does, from its environment name
 * (OS_AUTH_URL → --os-auth-url); `insecure` is plain `--insecure`.
 */
function flagOf(f: (typeof IDENTITY_FIELDS)[number]): string {
  if (f.name === "insecure") return "--insecure";
  return `--${(f.env[0] ?? "").toLowerCase().replace(/_/g, "-")}`;
}

/** The identity fields the command line takes, each with its flag (provider/identity/fields.ts). */
const FLAGS = IDENTITY_FIELDS.filter((f) => f.flag).map((f) => ({ field: f, flag: flagOf(f) }));

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

/** The flag of each identity argument, as the library names them. */
const FLAG_OF_ARG: Readonly<Record<string, string>> = Object.fromEntries(
  FLAGS.map(({ field, flag }) => [field.name, flag]),
);

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
 * withIdentityFlags resolves identity settings from the arguments the flags gave and names a refused
 * setting by the flag the user typed (`--os-cloud`), not by the library's argument (`cloud`).
 */
export function withIdentityFlags<T>(args: IdentityArgs, resolve: (args: IdentityArgs) => T): T {
  try {
    return resolve(args);
  } catch (e) {
    const flag = isConfigError(e) ? FLAG_OF_ARG[e.field] : undefined;
    if (!flag || !isConfigError(e) || e.constructor !== ConfigError || !(e.field in args)) throw e;
    throw new ConfigError(flag, e.message.slice(e.field.length + 2), { cause: e.cause });
  }
}
