/**
 * The OpenStack identity flags, as python-openstackclient spells them.
 */
import type { Command } from "commander";
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

/** identityArgsFrom turns parsed flags into IdentityArgs (flags win over env and clouds.yaml). */
export function identityArgsFrom(o: Record<string, string | boolean | undefined>): IdentityArgs {
  const s = (k: string) => (typeof o[k] === "string" ? (o[k] as string) : undefined);
  const args: IdentityArgs = {
    cloud: s("osCloud"),
    authUrl: s("osAuthUrl"),
    authType: s("osAuthType"),
    applicationCredentialId: s("osApplicationCredentialId"),
    applicationCredentialName: s("osApplicationCredentialName"),
    applicationCredentialSecret: s("osApplicationCredentialSecret"),
    username: s("osUsername"),
    userId: s("osUserId"),
    password: s("osPassword"),
    userDomainName: s("osUserDomainName"),
    userDomainId: s("osUserDomainId"),
    projectName: s("osProjectName"),
    projectId: s("osProjectId"),
    projectDomainId: s("osProjectDomainId"),
    projectDomainName: s("osProjectDomainName"),
    caCert: s("osCacert"),
    insecure: o["insecure"] === true ? true : undefined,
    ...transportArgsFrom(o),
  };
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)) as IdentityArgs;
}
