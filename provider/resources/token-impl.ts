/**
 * What the token provider does, as plain functions. The serialized provider reaches this module
 * with `require("costgate/...")` at run time, so nothing here is captured into state.
 * @internal
 */
import { isConfigError } from "../errors";
import type { TransportOptions } from "../http";
import { type AuthMethod, validateAuth } from "../identity/auth";
import { authMethodFields, IDENTITY_FIELDS } from "../identity/fields";
import type { Token } from "../identity/results";
import { issueToken, revokeToken, validateToken } from "../identity/tokens";
import { normalizeAuthUrl } from "../identity/urls";
import type { IdentityFields } from "../settings";

/** The provider's inputs, as the engine hands them over (secrets unwrapped). */
export interface TokenInputs {
  authType: "application_credential" | "password";
  authUrl?: string;
  applicationCredentialId?: string;
  applicationCredentialName?: string;
  applicationCredentialSecret?: string;
  userId?: string;
  username?: string;
  userDomainName?: string;
  userDomainId?: string;
  password?: string;
  projectId?: string;
  projectName?: string;
  projectDomainId?: string;
  projectDomainName?: string;
  renewBeforeSeconds?: number;
  caCert?: string;
  insecure?: boolean;
  timeoutSeconds?: number;
}

/** The provider's outputs: the inputs plus what Keystone said of the token. */
export interface TokenOutputs extends TokenInputs {
  token: string;
  expiresAt: string;
  issuedAt: string;
  methods: string[];
  userName: string;
  userDomainId: string;
  projectId: string;
  projectName: string;
  projectDomainId: string;
  roles: string[];
  catalog: Token["catalog"];
  auditId: string;
  /** The credential inputs that were given: some share names with outputs (userId, projectId…). */
  credentialKeys: string[];
}

/** The default renewal window: re-issue when less than 30 minutes remain. */
export const DEFAULT_RENEW_BEFORE_SECONDS = 1800;

/** Inputs whose change means a new token: the credentials and where they are sent. */
export const CREDENTIAL_KEYS = IDENTITY_FIELDS.filter((f) => f.credential).map(
  (f) => f.name,
) as readonly (keyof TokenInputs)[];

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

function isUnknown(v: unknown): boolean {
  return v === UNKNOWN;
}

function authMethod(i: TokenInputs): AuthMethod {
  // a missing secret is sent to validateAuth as "", which names it
  if (i.authType === "password")
    return validateAuth(authMethodFields("password", { ...i, password: i.password ?? "" }));
  return validateAuth(
    authMethodFields("application_credential", {
      ...i,
      applicationCredentialSecret: i.applicationCredentialSecret ?? "",
    }),
  );
}

function transport(i: TokenInputs): TransportOptions {
  const t: TransportOptions = {};
  if (i.caCert) t.caCert = i.caCert;
  if (i.insecure) t.insecure = true;
  if (i.timeoutSeconds) t.timeouts = { totalMs: i.timeoutSeconds * 1000, headersMs: i.timeoutSeconds * 1000 };
  return t;
}

function endpoint(i: TokenInputs) {
  return { authUrl: i.authUrl ?? "", transport: transport(i) };
}

/**
 * fallbacks are the environment's values (`OS_*`, clouds.yaml: settings.ts) for the inputs a token resource
 * was not given, as AppCredentialToken and PasswordToken take them: a field whose alternative was given
 * (a credential name instead of its id, a user id instead of a name...) takes no fallback. Shared by the
 * TypeScript resources (token.ts) and the provider plugin (plugin/resources.ts).
 */
export function fallbacks(
  authType: TokenInputs["authType"],
  given: (key: keyof TokenInputs) => boolean,
  env: IdentityFields,
): Partial<TokenInputs> {
  const unless = (other: boolean, v: string | undefined) => (other ? undefined : v);
  const common = { authUrl: env.authUrl, caCert: env.caCert, insecure: env.insecure };
  if (authType === "application_credential") {
    return {
      ...common,
      applicationCredentialId: unless(given("applicationCredentialName"), env.applicationCredentialId),
      applicationCredentialSecret: env.applicationCredentialSecret,
    };
  }
  const projectGiven = given("projectId") || given("projectName");
  const userGiven = given("userId") || given("username");
  return {
    ...common,
    username: unless(userGiven, env.username),
    userId: unless(userGiven, env.userId),
    userDomainName: unless(given("userDomainId"), env.userDomainName),
    userDomainId: unless(given("userDomainName"), env.userDomainId),
    password: env.password,
    projectName: unless(projectGiven, env.projectName),
    projectId: unless(projectGiven, env.projectId),
    projectDomainId: unless(given("projectDomainName"), env.projectDomainId),
    projectDomainName: unless(given("projectDomainId"), env.projectDomainName),
  };
}

/** check validates the inputs before anything is sent; unknown values (preview) are skipped. */
export function check(news: TokenInputs): {
  inputs: TokenInputs;
  failures: { property: string; reason: string }[];
} {
  const failures: { property: string; reason: string }[] = [];
  const anyUnknown = Object.values(news).some(isUnknown);
  if (isUnknown(news.authUrl)) {
    // checked once known
  } else if (!news.authUrl) {
    failures.push({
      property: "authUrl",
      reason: "authUrl: missing; give the identity address or set OS_AUTH_URL",
    });
  } else {
    try {
      news = { ...news, authUrl: normalizeAuthUrl(news.authUrl) };
    } catch (e) {
      failures.push({ property: "authUrl", reason: (e as Error).message });
    }
  }
  if (!anyUnknown) {
    try {
      authMethod(news);
    } catch (e) {
      if (!isConfigError(e)) throw e;
      const property = mapField(e.field);
      // the reason names the input as the program spells it (username, not the auth body's userName)
      const reason = property === e.field ? e.message : `${property}: ${e.reason}`;
      failures.push({ property, reason });
    }
  }
  const r = news.renewBeforeSeconds;
  if (r !== undefined && !isUnknown(r) && (typeof r !== "number" || r < 0)) {
    failures.push({
      property: "renewBefore",
      reason: "renewBefore must be a non-negative number of seconds",
    });
  }
  return { inputs: news, failures };
}

function mapField(field: string): string {
  const map: Record<string, string> = { userName: "username" };
  return map[field] ?? field;
}

/** renewalDue tells whether a token expiring at `expiresAt` is inside the renewal window at `now`. */
export function renewalDue(expiresAt: string | undefined, renewBeforeSeconds: number, now: number): boolean {
  if (!expiresAt) return true;
  const t = Date.parse(expiresAt);
  if (Number.isNaN(t)) return true;
  return t - renewBeforeSeconds * 1000 <= now;
}

/** diff asks for a new token when a credential changed or the stored token is inside the renewal window. */
export function diff(
  olds: Partial<TokenOutputs>,
  news: TokenInputs,
  now: number = Date.now(),
): { changes: boolean; replaces: string[]; deleteBeforeReplace: boolean } {
  const replaces: string[] = [];
  const given = new Set(olds.credentialKeys ?? CREDENTIAL_KEYS);
  for (const key of CREDENTIAL_KEYS) {
    const a = given.has(key) ? olds[key] : undefined;
    const b = news[key];
    if ((a ?? "") !== (b ?? "") || isUnknown(b)) replaces.push(key);
  }
  const renewBefore = news.renewBeforeSeconds ?? DEFAULT_RENEW_BEFORE_SECONDS;
  if (renewalDue(olds.expiresAt, renewBefore, now)) replaces.push("expiresAt");
  let changes = replaces.length > 0;
  for (const key of ["renewBeforeSeconds", "caCert", "insecure", "timeoutSeconds"] as const) {
    if ((olds[key] ?? null) !== (news[key] ?? null)) changes = true;
  }
  return { changes, replaces, deleteBeforeReplace: false };
}

function strip<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;
}

function outputs(inputs: TokenInputs, token: Token): TokenOutputs {
  return strip({
    ...inputs,
    authUrl: normalizeAuthUrl(inputs.authUrl ?? ""),
    token: token.id,
    expiresAt: token.expiresAt,
    issuedAt: token.issuedAt ?? "",
    methods: token.methods,
    userId: token.user.id,
    userName: token.user.name ?? "",
    userDomainId: token.user.domain?.id ?? "",
    projectId: token.project?.id ?? "",
    projectName: token.project?.name ?? "",
    projectDomainId: token.project?.domain?.id ?? "",
    roles: token.roles.map((r) => r.name ?? r.id),
    catalog: token.catalog,
    auditId: token.auditIds[0] ?? "",
    credentialKeys: CREDENTIAL_KEYS.filter((k) => inputs[k] !== undefined && inputs[k] !== null),
  });
}

/** create issues a token; its audit id is the resource id (not a secret). */
export async function create(inputs: TokenInputs): Promise<{ id: string; outs: TokenOutputs }> {
  const token = await issueToken(endpoint(inputs), authMethod(inputs));
  const outs = outputs(inputs, token);
  return { id: outs.auditId || token.expiresAt, outs };
}

/** update keeps the token and takes the new non-credential settings. */
export async function update(olds: TokenOutputs, news: TokenInputs): Promise<{ outs: TokenOutputs }> {
  const settings = {
    renewBeforeSeconds: news.renewBeforeSeconds,
    caCert: news.caCert,
    insecure: news.insecure,
    timeoutSeconds: news.timeoutSeconds,
  };
  const kept = { ...olds };
  for (const k of ["renewBeforeSeconds", "caCert", "insecure", "timeoutSeconds"] as const) delete kept[k];
  return { outs: strip({ ...kept, ...settings }) as TokenOutputs };
}

/** read validates the stored token; a token Keystone no longer accepts is reported gone. */
export async function read(id: string, props: TokenOutputs): Promise<{ id?: string; props?: TokenOutputs }> {
  if (!props.token) return {};
  const info = await validateToken(endpoint(props), props.token);
  if (!info) return {};
  return {
    id,
    props: strip({
      ...props,
      expiresAt: info.expiresAt,
      issuedAt: info.issuedAt ?? props.issuedAt,
      roles: info.roles.map((r) => r.name ?? r.id),
      catalog: info.catalog.length > 0 ? info.catalog : props.catalog,
    }),
  };
}

/** remove revokes the token; one that is already invalid or expired needs nothing. */
export async function remove(props: TokenOutputs, now: number = Date.now()): Promise<void> {
  if (!props.token) return;
  if (props.expiresAt && Date.parse(props.expiresAt) <= now) return;
  await revokeToken(endpoint(props), props.token);
}
