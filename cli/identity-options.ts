/**
 * The OpenStack identity flags, as python-openstackclient spells them.
 */
import type { Command } from "commander";
import { ConfigError, isConfigError } from "../provider/errors";
import type { IdentityArgs } from "../provider/settings";
import { addTransportOptions, transportArgsFrom } from "./transport-options";

/** addIdentityOptions adds the --os-* flags, --timeout and --retries to a command. */
export function addIdentityOptions(cmd: Command): Command {
  cmd
    .option("--os-cloud <name>", "a cloud of clouds.yaml (env OS_CLOUD)")
    .option("--os-auth-url <url>", "identity address ending in /v3 (env OS_AUTH_URL)")
    .option("--os-auth-type <type>", "v3applicationcredential or password (env OS_AUTH_TYPE)")
    .option("--os-application-credential-id <id>", "env OS_APPLICATION_CREDENTIAL_ID")
    .option("--os-application-credential-name <name>", "env OS_APPLICATION_CREDENTIAL_NAME")
    .option(
      "--os-application-credential-secret <secret>",
      "env OS_APPLICATION_CREDENTIAL_SECRET (prefer the env: flags show in ps)",
    )
    .option("--os-username <name>", "env OS_USERNAME")
    .option("--os-user-id <id>", "env OS_USER_ID")
    .option("--os-password <password>", "env OS_PASSWORD (prefer the env: flags show in ps)")
    .option("--os-user-domain-name <name>", "env OS_USER_DOMAIN_NAME")
    .option("--os-user-domain-id <id>", "env OS_USER_DOMAIN_ID")
    .option("--os-project-name <name>", "env OS_PROJECT_NAME")
    .option("--os-project-id <id>", "env OS_PROJECT_ID")
    .option("--os-project-domain-id <id>", "env OS_PROJECT_DOMAIN_ID")
    .option("--os-project-domain-name <name>", "env OS_PROJECT_DOMAIN_NAME")
    .option("--os-cacert <file>", "CA bundle to trust (env OS_CACERT)")
    .option("--insecure", "skip TLS verification (prefer --os-cacert)");
  return addTransportOptions(cmd);
}

/** The flag of each identity argument, as the library names them. */
const FLAG_OF_ARG: Readonly<Record<string, string>> = {
  cloud: "--os-cloud",
  authUrl: "--os-auth-url",
  authType: "--os-auth-type",
  applicationCredentialId: "--os-application-credential-id",
  applicationCredentialName: "--os-application-credential-name",
  applicationCredentialSecret: "--os-application-credential-secret",
  username: "--os-username",
  userId: "--os-user-id",
  password: "--os-password",
  userDomainName: "--os-user-domain-name",
  userDomainId: "--os-user-domain-id",
  projectName: "--os-project-name",
  projectId: "--os-project-id",
  projectDomainId: "--os-project-domain-id",
  projectDomainName: "--os-project-domain-name",
  caCert: "--os-cacert",
  insecure: "--insecure",
};

/** The commander key of a flag: --os-auth-url → osAuthUrl. */
const keyOf = (flag: string) => flag.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** identityArgsFrom turns parsed flags into IdentityArgs (flags win over env and clouds.yaml). */
export function identityArgsFrom(o: Record<string, string | boolean | undefined>): IdentityArgs {
  const args: Record<string, unknown> = {};
  for (const [arg, flag] of Object.entries(FLAG_OF_ARG)) {
    const v = o[keyOf(flag)];
    if (arg === "insecure") {
      if (v === true) args[arg] = true;
    } else if (typeof v === "string") args[arg] = v;
  }
  return { ...(args as IdentityArgs), ...transportArgsFrom(o) };
}

/**
 * withIdentityFlags resolves identity settings from the flags and names a refused setting by the
 * flag the user typed (`--os-cloud`), not by the library's argument (`cloud`).
 */
export function withIdentityFlags<T>(
  o: Record<string, string | boolean | undefined>,
  resolve: (args: IdentityArgs) => T,
): T {
  const args = identityArgsFrom(o);
  try {
    return resolve(args);
  } catch (e) {
    const flag = isConfigError(e) ? FLAG_OF_ARG[e.field] : undefined;
    if (!flag || !isConfigError(e) || e.constructor !== ConfigError || !(e.field in args)) throw e;
    throw new ConfigError(flag, e.message.slice(e.field.length + 2), { cause: e.cause });
  }
}
