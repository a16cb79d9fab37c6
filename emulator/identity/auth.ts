/**
 * POST /v3/auth/tokens: from the request body to the token to issue, in Keystone's order
 * (keystone/auth/core.py AuthInfo, keystone/auth/plugins): JSON and schema (400), method
 * sections and names (400, 401), scope (400, 401; an application credential's own project),
 * then each method (password, application_credential, token), then the role check (401).
 */
import type { SeedDomain, SeedUser } from "../seed";
import type { Directory, DomainRef } from "./directory";
import { expecting, KeystoneError, unauthorized } from "./errors";
import { validateTokenIssue } from "./schema";
import type { TokenStore } from "./tokens";

/** The auth methods a default Keystone loads, in the order its 401 lists them. */
const SUPPORTED = ["external", "password", "token", "oauth1", "mapped", "application_credential"];
/** The methods the emulator can satisfy. */
const IMPLEMENTED = new Set(["password", "token", "application_credential"]);

/** What to issue: the user, the project (none: unscoped), the credential and the methods. */
export interface Grant {
  userId: string;
  projectId?: string;
  appCredId?: string;
  methods: string[];
  /** A token re-issued by the token method keeps the original's expiry. */
  notAfterMs?: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const optStr = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** authenticate checks a token request and returns what to issue, or throws a KeystoneError. */
export function authenticate(rawBody: string, dir: Directory, tokens: TokenStore): Grant {
  let body: unknown = {};
  if (rawBody.trim() !== "") {
    try {
      body = JSON.parse(rawBody);
    } catch {
      throw expecting("valid JSON", "request body");
    }
  }
  if (!isObj(body)) throw expecting("valid JSON", "request body");
  const auth = body.auth;
  if (auth === undefined || auth === null) throw expecting("auth", "request body");
  validateTokenIssue(auth);
  const a = auth as Obj;
  const identity = a.identity as Obj;
  const methods = identity.methods as string[];

  for (const m of methods) if (!(m in identity)) throw expecting(m, "identity");
  for (const m of methods) {
    if (!SUPPORTED.includes(m)) {
      throw new KeystoneError(401, "Attempted to authenticate with an unsupported method.", {
        identity: { methods: SUPPORTED },
      });
    }
  }
  if (methods.length === 0 || methods.some((m) => !IMPLEMENTED.has(m))) throw unauthorized();

  // Scope first, as Keystone normalizes it before running any method.
  let projectId: string | undefined;
  let appCredId: string | undefined;
  if (methods.includes("application_credential")) {
    if ("scope" in a) {
      throw new KeystoneError(
        401,
        "Error authenticating with application credential: Application credentials cannot request a scope.",
        { identity: {} },
      );
    }
    const cred = lookupAppCred(identity.application_credential, dir);
    appCredId = cred.id;
    projectId = cred.projectId;
  } else if ("scope" in a) {
    projectId = resolveScope(a.scope, dir);
  }

  let userId: string | undefined;
  let notAfterMs: number | undefined;
  const sameUser = (id: string) => {
    if (userId !== undefined && userId !== id) throw unauthorized();
    userId = id;
  };
  for (const m of methods) {
    if (m === "password") sameUser(passwordUser(identity.password, dir).id);
    if (m === "application_credential") {
      const cred = dir.appCredById(appCredId as string);
      const secret = (identity.application_credential as Obj).secret;
      if (!cred || !bcryptMatches(secret, cred.secret)) throw unauthorized();
      sameUser(cred.userId);
    }
    if (m === "token") {
      const found = tokens.lookup((identity.token as Obj).id as string);
      if (found.state !== "valid") throw new KeystoneError(404, "Could not recognize Fernet token");
      if (found.token.appCredId) {
        throw new KeystoneError(403, "You are not authorized to perform the requested action.");
      }
      sameUser(found.token.userId);
      notAfterMs = found.token.expiresAtMs;
    }
  }
  const user = dir.userById(userId as string);
  if (!user) throw unauthorized();
  if (projectId !== undefined && dir.roles(user, projectId).length === 0) throw unauthorized();
  const grant: Grant = { userId: user.id, methods: [...methods] };
  if (projectId !== undefined) grant.projectId = projectId;
  if (appCredId !== undefined) grant.appCredId = appCredId;
  if (notAfterMs !== undefined) grant.notAfterMs = notAfterMs;
  return grant;
}

/**
 * bcryptMatches compares as Keystone's bcrypt hashes do: only the first 72 bytes of the UTF-8
 * count (captured: an application credential secret with a suffix is accepted).
 */
function bcryptMatches(given: unknown, expected: string): boolean {
  if (typeof given !== "string" || given === "") return false;
  const a = Buffer.from(given, "utf8").subarray(0, 72);
  return a.equals(Buffer.from(expected, "utf8").subarray(0, 72));
}

function lookupDomain(ref: unknown, dir: Directory): SeedDomain {
  const r = (isObj(ref) ? ref : {}) as DomainRef;
  if (!optStr(r.id) && !optStr(r.name)) throw expecting("id or name", "domain");
  const d = dir.domain(optStr(r.id) ? { id: r.id as string } : { name: r.name as string });
  if (!d) throw unauthorized();
  return d;
}

/** resolveScope returns the project of `scope` (undefined: unscoped). */
function resolveScope(scope: unknown, dir: Directory): string | undefined {
  if (typeof scope === "string") {
    if (scope.includes("unscoped")) return undefined;
    throw expecting("system, project, domain, OS-TRUST:trust or unscoped", "scope");
  }
  const s = scope as Obj;
  const kinds = ["project", "domain", "unscoped", "system", "OS-TRUST:trust"].filter((k) => k in s);
  if (kinds.length !== 1) throw expecting("system, project, domain, OS-TRUST:trust or unscoped", "scope");
  if ("unscoped" in s) return undefined;
  // The emulator has no domain, system or trust role assignments: Keystone's answer is a 401.
  if (!("project" in s)) throw unauthorized();
  const p = s.project as Obj;
  const name = optStr(p.name);
  if (name !== undefined) {
    if (!("domain" in p)) throw expecting("domain", "project");
    const project = dir.projectByName(name, lookupDomain(p.domain, dir));
    if (!project) throw unauthorized();
    return project.id;
  }
  const project = optStr(p.id) ? dir.projectById(p.id as string) : undefined;
  if (!project) throw unauthorized();
  return project.id;
}

function lookupUser(user: Obj, dir: Directory): SeedUser | undefined {
  const name = optStr(user.name);
  if (name !== undefined) {
    if (!("domain" in user)) throw expecting("domain", "user");
    return dir.userByName(name, lookupDomain(user.domain, dir));
  }
  return dir.userById(user.id as string);
}

function passwordUser(section: unknown, dir: Directory): SeedUser {
  const s = (isObj(section) ? section : {}) as Obj;
  if (!isObj(s.user)) throw expecting("user", "password");
  const u = s.user;
  if (!optStr(u.id) && !optStr(u.name)) throw expecting("id or name", "user");
  const user = lookupUser(u, dir);
  if (!user || !bcryptMatches(u.password, user.password)) throw unauthorized();
  return user;
}

function lookupAppCred(section: unknown, dir: Directory) {
  const s = (isObj(section) ? section : {}) as Obj;
  const id = optStr(s.id);
  if (id !== undefined) {
    const cred = dir.appCredById(id);
    if (!cred) throw new KeystoneError(404, `Could not find Application Credential: ${id}.`);
    return cred;
  }
  const name = optStr(s.name);
  if (name === undefined) throw expecting("name or ID", "application credential");
  if (!isObj(s.user)) throw expecting("user", "application credential");
  const u = s.user;
  const user = optStr(u.id) !== undefined ? dir.userById(u.id as string) : lookupUser(u, dir);
  const cred = user ? dir.appCredByName(name, user.id) : undefined;
  if (!cred) throw unauthorized();
  return cred;
}
