/**
 * Keystone v3 auth methods: how a caller proves who it is (docs/API.md#issue-a-token-with-a-password, docs/API.md#issue-a-token-with-an-application-credential; Keystone API reference
 * "Password authentication with scoped authorization", "Application Credentials").
 * A method is validated before any request and turned into the `auth` body of POST /v3/auth/tokens.
 */
import { ConfigError } from "../errors";
import type { Assert, Exact } from "../exact";

// A hand-written check, not a zod schema: every command that resolves identity settings (and `balance`,
// whose settings module imports this one) would otherwise load zod at start, ~60 ms of a ~150 ms command
// (docs/BENCHMARKS.md). The fields are few and flat; the rules are the data below.

/**
 * How a method's field is checked: a `name` (an id or a name) is trimmed and must not be empty, and is
 * optional; a `secret` is taken as given, must not be empty, and is required.
 */
type FieldKind = "name" | "secret";

/**
 * @internal METHOD_FIELDS lists each auth method's fields, in the order they are checked: the one list
 * validateAuth reads and the method types are checked against.
 */
export const METHOD_FIELDS = {
  /** Application credential by id and secret (docs/API.md#issue-a-token-with-an-application-credential); no scope is sent. */
  application_credential: {
    applicationCredentialId: "name",
    applicationCredentialName: "name",
    applicationCredentialSecret: "secret",
    userId: "name",
    userName: "name",
    userDomainId: "name",
    userDomainName: "name",
  },
  /** User name (or id) and password, scoped to a project (docs/API.md#issue-a-token-with-a-password). */
  password: {
    userName: "name",
    userId: "name",
    userDomainName: "name",
    userDomainId: "name",
    password: "secret",
    projectId: "name",
    projectName: "name",
    projectDomainId: "name",
    projectDomainName: "name",
  },
} as const satisfies Record<string, Record<string, FieldKind>>;

type Fields = typeof METHOD_FIELDS;
/** The method a field table describes: its secrets required, its names optional. */
type MethodOf<T extends keyof Fields> = { type: T } & {
  -readonly [K in keyof Fields[T] as Fields[T][K] extends "secret" ? K : never]: string;
} & { -readonly [K in keyof Fields[T] as Fields[T][K] extends "name" ? K : never]?: string };
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * ApplicationCredentialAuth: an application credential by id (or by name with its user) and its secret
 * (docs/API.md#issue-a-token-with-an-application-credential). No scope is sent: the credential carries its project.
 */
export interface ApplicationCredentialAuth {
  type: "application_credential";
  applicationCredentialId?: string;
  applicationCredentialName?: string;
  applicationCredentialSecret: string;
  /** With a credential name, the owning user by id, or by name and domain. */
  userId?: string;
  userName?: string;
  userDomainId?: string;
  userDomainName?: string;
}

/** PasswordAuth: a user by name (with a domain) or id, and a password, scoped to a project (docs/API.md#issue-a-token-with-a-password). */
export interface PasswordAuth {
  type: "password";
  userName?: string;
  userId?: string;
  userDomainName?: string;
  userDomainId?: string;
  password: string;
  projectId?: string;
  projectName?: string;
  projectDomainId?: string;
  projectDomainName?: string;
}

type _SameAuth = [
  Assert<Exact<ApplicationCredentialAuth, Flat<MethodOf<"application_credential">>>>,
  Assert<Exact<PasswordAuth, Flat<MethodOf<"password">>>>,
];
/** AuthMethod is one way to obtain a token. */
export type AuthMethod = ApplicationCredentialAuth | PasswordAuth;

/**
 * checkFields reads a method's fields as METHOD_FIELDS describes them, in their order, and refuses any
 * other key: the first problem is thrown, naming the field. Names come back trimmed; keys whose value is
 * undefined are left out.
 */
function checkFields(type: keyof Fields, input: Record<string, unknown>): AuthMethod {
  const fields: Record<string, FieldKind> = METHOD_FIELDS[type];
  const out: Record<string, unknown> = { type };
  for (const [field, kind] of Object.entries(fields)) {
    const v = Object.hasOwn(input, field) ? input[field] : undefined;
    if (v === undefined) {
      if (kind === "secret") throw new ConfigError(field, "is missing");
      continue;
    }
    if (typeof v !== "string") throw new ConfigError(field, `${field} must be a string`);
    const value = kind === "name" ? v.trim() : v;
    if (value.length === 0) throw new ConfigError(field, `${field} is empty`);
    out[field] = value;
  }
  for (const key of Object.keys(input)) {
    if (key !== "type" && !Object.hasOwn(fields, key)) {
      throw new ConfigError(
        "auth",
        `${JSON.stringify(key.slice(0, 64))} is not a field of the ${type} method; remove it`,
      );
    }
  }
  return out as unknown as AuthMethod;
}

/**
 * validateAuth checks a method's fields and the combinations Keystone needs, naming the field
 * and the fix. Nothing is sent before this passes.
 */
export function validateAuth(input: unknown): AuthMethod {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new ConfigError("auth", "must be an object with a type and the method's fields");
  }
  const fields = input as Record<string, unknown>;
  if (fields["type"] !== "password" && fields["type"] !== "application_credential") {
    throw new ConfigError("type", 'must be "application_credential" or "password"');
  }
  const m = checkFields(fields["type"], fields);
  if (m.type === "application_credential") {
    if (!m.applicationCredentialId && !m.applicationCredentialName) {
      throw new ConfigError(
        "applicationCredentialId",
        "missing; give the application credential id (OS_APPLICATION_CREDENTIAL_ID)",
      );
    }
    if (!m.applicationCredentialId && !m.userId && !(m.userName && (m.userDomainId || m.userDomainName))) {
      throw new ConfigError(
        "userId",
        "an application credential given by name needs its user: userId, or userName with userDomainName/userDomainId",
      );
    }
    return m;
  }
  if (!m.userId && !m.userName) {
    throw new ConfigError("userName", "missing; give the user name (OS_USERNAME) or id (OS_USER_ID)");
  }
  if (m.userName && !m.userId && !m.userDomainId && !m.userDomainName) {
    throw new ConfigError(
      "userDomainName",
      "a user given by name needs its domain: set userDomainName (OS_USER_DOMAIN_NAME) or userDomainId (OS_USER_DOMAIN_ID)",
    );
  }
  if (!m.projectId && !m.projectName) {
    throw new ConfigError(
      "projectName",
      "missing; a password token is scoped to a project: give projectName (OS_PROJECT_NAME) or projectId (OS_PROJECT_ID)",
    );
  }
  if (m.projectName && !m.projectId && !m.projectDomainId && !m.projectDomainName) {
    throw new ConfigError(
      "projectDomainId",
      "a project given by name needs its domain: set projectDomainId (OS_PROJECT_DOMAIN_ID) or projectDomainName (OS_PROJECT_DOMAIN_NAME)",
    );
  }
  return m;
}

function domainRef(id?: string, name?: string): { id: string } | { name: string } | undefined {
  if (id) return { id };
  if (name) return { name };
  return undefined;
}

/** authBody builds the JSON body of POST /v3/auth/tokens for a validated method. */
export function authBody(m: AuthMethod): unknown {
  if (m.type === "application_credential") {
    const cred: Record<string, unknown> = { secret: m.applicationCredentialSecret };
    if (m.applicationCredentialId) {
      cred["id"] = m.applicationCredentialId;
    } else {
      cred["name"] = m.applicationCredentialName;
      cred["user"] = m.userId
        ? { id: m.userId }
        : { name: m.userName, domain: domainRef(m.userDomainId, m.userDomainName) };
    }
    return { auth: { identity: { methods: ["application_credential"], application_credential: cred } } };
  }
  const user: Record<string, unknown> = { password: m.password };
  if (m.userId) user["id"] = m.userId;
  else {
    user["name"] = m.userName;
    user["domain"] = domainRef(m.userDomainId, m.userDomainName);
  }
  const project: Record<string, unknown> = m.projectId
    ? { id: m.projectId }
    : { name: m.projectName, domain: domainRef(m.projectDomainId, m.projectDomainName) };
  return { auth: { identity: { methods: ["password"], password: { user } }, scope: { project } } };
}

/** describeAuth names a method for messages, without any secret. */
export function describeAuth(m: AuthMethod): string {
  if (m.type === "application_credential") {
    return `application credential ${m.applicationCredentialId ?? m.applicationCredentialName}`;
  }
  return `user ${m.userId ?? m.userName}`;
}
