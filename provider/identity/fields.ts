/**
 * The identity fields, declared once (as gophercloud's `AuthOptions`): each one's argument name, its
 * `OS_*` environment variables, its key in clouds.yaml, whether it is a secret, and what it is in
 * each auth method. The environment lookup and clouds.yaml keys (settings.ts), the CLI's `--os-*`
 * flags (cli/identity-options.ts, which spells them from the environment name as
 * python-openstackclient does), the token resource's credential inputs and the auth method built from
 * them (token-impl.ts, settings.ts) all derive from this list.
 */
import type { AuthMethod } from "./auth";

/** The two auth methods costgate speaks, as Keystone names them. */
export type AuthType = AuthMethod["type"];

/** IdentityField is one identity setting. */
export interface IdentityField {
  /** The argument's name: `IdentityArgs`, the token resources' inputs. */
  readonly name: string;
  /** The environment variables, first found wins; the first is the one the CLI's flag is named after. */
  readonly env: readonly string[];
  /** The key under a cloud's `auth:` in clouds.yaml / secure.yaml, when it has one there. */
  readonly cloudsKey?: string;
  /** A secret: never shown, stored encrypted. */
  readonly secret: boolean;
  /** The command line takes it as a flag. */
  readonly flag: boolean;
  /** A change of it means a new token (the token resource re-issues). */
  readonly credential: boolean;
  /** What it is in each auth method that reads it (a field of that method's body). */
  readonly method: Partial<Record<AuthType, string>>;
  /** In a few words, for help texts. */
  readonly words: string;
}

const both = (field: string) => ({ application_credential: field, password: field });

/** IDENTITY_FIELDS lists every identity setting, in the order the CLI's help lists them. */
export const IDENTITY_FIELDS = [
  {
    name: "cloud",
    env: ["OS_CLOUD"],
    secret: false,
    flag: true,
    credential: false,
    method: {},
    words: "a cloud of clouds.yaml",
  },
  {
    name: "authUrl",
    env: ["OS_AUTH_URL"],
    cloudsKey: "auth_url",
    secret: false,
    flag: true,
    credential: true,
    method: {},
    words: "identity address ending in /v3",
  },
  {
    name: "authType",
    env: ["OS_AUTH_TYPE"],
    secret: false,
    flag: true,
    credential: true,
    method: {},
    words: "v3applicationcredential or password",
  },
  {
    name: "applicationCredentialId",
    env: ["OS_APPLICATION_CREDENTIAL_ID"],
    cloudsKey: "application_credential_id",
    secret: false,
    flag: true,
    credential: true,
    method: { application_credential: "applicationCredentialId" },
    words: "application credential id",
  },
  {
    name: "applicationCredentialName",
    env: ["OS_APPLICATION_CREDENTIAL_NAME"],
    cloudsKey: "application_credential_name",
    secret: false,
    flag: true,
    credential: true,
    method: { application_credential: "applicationCredentialName" },
    words: "application credential name",
  },
  {
    name: "applicationCredentialSecret",
    env: ["OS_APPLICATION_CREDENTIAL_SECRET"],
    cloudsKey: "application_credential_secret",
    secret: true,
    flag: true,
    credential: true,
    method: { application_credential: "applicationCredentialSecret" },
    words: "application credential secret",
  },
  {
    name: "username",
    env: ["OS_USERNAME"],
    cloudsKey: "username",
    secret: false,
    flag: true,
    credential: true,
    method: both("userName"),
    words: "user name",
  },
  {
    name: "userId",
    env: ["OS_USER_ID"],
    cloudsKey: "user_id",
    secret: false,
    flag: true,
    credential: true,
    method: both("userId"),
    words: "user id",
  },
  {
    name: "password",
    env: ["OS_PASSWORD"],
    cloudsKey: "password",
    secret: true,
    flag: true,
    credential: true,
    method: { password: "password" },
    words: "the user's password",
  },
  {
    name: "userDomainName",
    env: ["OS_USER_DOMAIN_NAME"],
    cloudsKey: "user_domain_name",
    secret: false,
    flag: true,
    credential: true,
    method: both("userDomainName"),
    words: "the user's domain name",
  },
  {
    name: "userDomainId",
    env: ["OS_USER_DOMAIN_ID"],
    cloudsKey: "user_domain_id",
    secret: false,
    flag: true,
    credential: true,
    method: both("userDomainId"),
    words: "the user's domain id",
  },
  {
    name: "projectName",
    env: ["OS_PROJECT_NAME", "OS_TENANT_NAME"],
    cloudsKey: "project_name",
    secret: false,
    flag: true,
    credential: true,
    method: { password: "projectName" },
    words: "project name (the scope)",
  },
  {
    name: "projectId",
    env: ["OS_PROJECT_ID", "OS_TENANT_ID"],
    cloudsKey: "project_id",
    secret: false,
    flag: true,
    credential: true,
    method: { password: "projectId" },
    words: "project id (the scope)",
  },
  {
    name: "projectDomainId",
    env: ["OS_PROJECT_DOMAIN_ID"],
    cloudsKey: "project_domain_id",
    secret: false,
    flag: true,
    credential: true,
    method: { password: "projectDomainId" },
    words: "the project's domain id",
  },
  {
    name: "projectDomainName",
    env: ["OS_PROJECT_DOMAIN_NAME"],
    cloudsKey: "project_domain_name",
    secret: false,
    flag: true,
    credential: true,
    method: { password: "projectDomainName" },
    words: "the project's domain name",
  },
  {
    name: "regionName",
    env: ["OS_REGION_NAME"],
    secret: false,
    flag: false,
    credential: false,
    method: {},
    words: "region",
  },
  {
    name: "interface",
    env: ["OS_INTERFACE"],
    secret: false,
    flag: false,
    credential: false,
    method: {},
    words: "endpoint interface",
  },
  {
    name: "caCert",
    env: ["OS_CACERT"],
    secret: false,
    flag: true,
    credential: false,
    method: {},
    words: "CA bundle to trust",
  },
  {
    name: "insecure",
    env: ["OS_INSECURE"],
    secret: false,
    flag: true,
    credential: false,
    method: {},
    words: "skip TLS verification (prefer a CA bundle)",
  },
] as const satisfies readonly IdentityField[];

/** IdentityFieldName is the name of an identity field. */
export type IdentityFieldName = (typeof IDENTITY_FIELDS)[number]["name"];

/**
 * authMethodFields is the body of an auth method from the identity fields' values: each field that
 * the method reads, under its name in that method (`username` → `userName`). Not validated: callers
 * pass it to `validateAuth`.
 *
 * @example authMethodFields("password", { username: "ci", password: "p" }); // { type: "password", userName: "ci", password: "p" }
 */
export function authMethodFields(
  type: AuthType,
  values: Partial<Record<IdentityFieldName, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { type };
  for (const f of IDENTITY_FIELDS) {
    const key = (f.method as Partial<Record<AuthType, string>>)[type];
    if (key !== undefined) out[key] = values[f.name];
  }
  return out;
}
