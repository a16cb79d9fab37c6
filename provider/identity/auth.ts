/**
 * Keystone v3 auth methods: how a caller proves who it is (docs/API.md#issue-a-token-with-a-password, docs/API.md#issue-a-token-with-an-application-credential; Keystone API reference
 * "Password authentication with scoped authorization", "Application Credentials").
 * A method is validated before any request and turned into the `auth` body of POST /v3/auth/tokens.
 */
import { z } from "zod";
import { ConfigError } from "../errors";
import type { Assert, Exact } from "../exact";

const nonEmpty = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, `${what} is empty`);

/** Application credential by id and secret (docs/API.md#issue-a-token-with-an-application-credential); no scope is sent. @internal */
export const ApplicationCredentialAuthSchema = z
  .object({
    type: z.literal("application_credential"),
    applicationCredentialId: nonEmpty("applicationCredentialId").optional(),
    applicationCredentialName: nonEmpty("applicationCredentialName").optional(),
    applicationCredentialSecret: z.string().min(1, "applicationCredentialSecret is empty"),
    /** With a credential name, the owning user by id, or by name and domain. */
    userId: nonEmpty("userId").optional(),
    userName: nonEmpty("userName").optional(),
    userDomainId: nonEmpty("userDomainId").optional(),
    userDomainName: nonEmpty("userDomainName").optional(),
  })
  .strict();

/** User name (or id) and password, scoped to a project (docs/API.md#issue-a-token-with-a-password). @internal */
export const PasswordAuthSchema = z
  .object({
    type: z.literal("password"),
    userName: nonEmpty("userName").optional(),
    userId: nonEmpty("userId").optional(),
    userDomainName: nonEmpty("userDomainName").optional(),
    userDomainId: nonEmpty("userDomainId").optional(),
    password: z.string().min(1, "password is empty"),
    projectId: nonEmpty("projectId").optional(),
    projectName: nonEmpty("projectName").optional(),
    projectDomainId: nonEmpty("projectDomainId").optional(),
    projectDomainName: nonEmpty("projectDomainName").optional(),
  })
  .strict();

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
  Assert<Exact<ApplicationCredentialAuth, z.infer<typeof ApplicationCredentialAuthSchema>>>,
  Assert<Exact<PasswordAuth, z.infer<typeof PasswordAuthSchema>>>,
];
/** AuthMethod is one way to obtain a token. */
export type AuthMethod = ApplicationCredentialAuth | PasswordAuth;

function firstIssue(err: z.ZodError): { field: string; message: string } {
  const issue = err.issues[0];
  const field = issue?.path.map(String).join(".") || "auth";
  return { field, message: issue?.message ?? "invalid" };
}

const parsePassword = (input: unknown) => PasswordAuthSchema.safeParse(input);
const parseApplicationCredential = (input: unknown) => ApplicationCredentialAuthSchema.safeParse(input);

/**
 * validateAuth checks a method's fields and the combinations Keystone needs, naming the field
 * and the fix. Nothing is sent before this passes.
 */
export function validateAuth(input: unknown): AuthMethod {
  const type = (input as { type?: unknown } | undefined)?.type;
  const parsed = type === "password" ? parsePassword(input) : parseApplicationCredential(input);
  if (!parsed.success) {
    const { field, message } = firstIssue(parsed.error);
    throw new ConfigError(field, message);
  }
  const m = parsed.data;
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
