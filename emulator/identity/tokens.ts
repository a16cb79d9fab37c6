/**
 * Issued tokens and their bodies (Keystone API reference, "Password authentication with scoped
 * authorization" response; shapes as a real python3-keystone 22 sends them). Token values are
 * opaque random URL-safe strings shaped like Fernet tokens; times keep milliseconds, written with
 * Keystone's six fractional digits.
 */
import { randomBytes } from "node:crypto";
import { Rng } from "../prng";
import type { SeedData } from "../seed";
import type { Directory } from "./directory";

/** TokenRecord is what the emulator knows of an issued token. */
export interface TokenRecord {
  value: string;
  userId: string;
  projectId?: string;
  appCredId?: string;
  methods: string[];
  issuedAtMs: number;
  expiresAtMs: number;
  auditIds: string[];
  revoked: boolean;
}

/** The state of a presented token. */
export type TokenLookup = { state: "valid"; token: TokenRecord } | { state: "dead" } | { state: "unknown" };

/** keystoneTime writes an instant as Keystone does: `2026-11-22T01:30:00.000000Z`. */
export function keystoneTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** TokenStore issues, looks up and revokes tokens. */
export class TokenStore {
  private readonly tokens = new Map<string, TokenRecord>();

  constructor(
    private readonly now: () => Date,
    private readonly ttlSeconds: number,
  ) {}

  /** issue records a new token valid for the TTL from now. */
  issue(fields: { userId: string; projectId?: string; appCredId?: string; methods: string[] }): TokenRecord {
    const issuedAtMs = this.now().getTime();
    // "gAAAAAB" + base64url: the look and length (~185-205 chars) of a Fernet token.
    const value = `gAAAAAB${randomBytes(fields.appCredId ? 148 : 133).toString("base64url")}`;
    const token: TokenRecord = {
      value,
      ...fields,
      issuedAtMs,
      expiresAtMs: issuedAtMs + this.ttlSeconds * 1000,
      auditIds: [randomBytes(16).toString("base64url")],
      revoked: false,
    };
    this.tokens.set(value, token);
    return token;
  }

  /** lookup tells a valid token from a revoked or expired one ("dead") and from garbage ("unknown"). */
  lookup(value: string | undefined): TokenLookup {
    const token = value ? this.tokens.get(value) : undefined;
    if (!token) return { state: "unknown" };
    if (token.revoked || this.now().getTime() >= token.expiresAtMs) return { state: "dead" };
    return { state: "valid", token };
  }

  /** revoke makes a token invalid from now on. */
  revoke(token: TokenRecord): void {
    token.revoked = true;
  }
}

const SERVICES: { type: string; name: string; path: (projectId: string) => string }[] = [
  { type: "identity", name: "keystone", path: () => "/v3" },
  { type: "compute", name: "nova", path: () => "/compute/v2.1" },
  { type: "network", name: "neutron", path: () => "/network" },
  { type: "volumev3", name: "cinderv3", path: (p) => `/volume/v3/${p}` },
  { type: "image", name: "glance", path: () => "/image" },
  { type: "object-store", name: "swift", path: (p) => `/object-store/v1/AUTH_${p}` },
];

/** catalog is the service catalog of a project-scoped token: every service at public, internal, admin. */
export function catalog(seed: SeedData, baseUrl: string, projectId: string): unknown[] {
  const key = String(seed.seed);
  return SERVICES.map((s) => ({
    endpoints: ["public", "internal", "admin"].map((iface) => ({
      id: new Rng(key, "id", `endpoint:${s.type}:${iface}`).hex(16),
      interface: iface,
      region_id: seed.regionId,
      url: `${baseUrl}${s.path(projectId)}`,
      region: seed.regionId,
    })),
    id: new Rng(key, "id", `service:${s.type}`).hex(16),
    type: s.type,
    name: s.name,
  }));
}

/** renderToken is the `{"token": {...}}` body, keys in Keystone's order. */
export function renderToken(
  t: TokenRecord,
  dir: Directory,
  seed: SeedData,
  baseUrl: string,
  withCatalog: boolean,
): { token: Record<string, unknown> } {
  const user = dir.userById(t.userId);
  const body: Record<string, unknown> = {
    methods: t.methods,
    user: {
      domain: user ? { id: user.domain.id, name: user.domain.name } : undefined,
      id: t.userId,
      name: user?.name,
      password_expires_at: null,
    },
    audit_ids: t.auditIds,
    expires_at: keystoneTime(t.expiresAtMs),
    issued_at: keystoneTime(t.issuedAtMs),
  };
  const project = t.projectId ? dir.projectById(t.projectId) : undefined;
  if (project && user) {
    body.project = {
      domain: { id: project.domain.id, name: project.domain.name },
      id: project.id,
      name: project.name,
    };
    body.is_domain = false;
    body.roles = dir.roles(user, project.id).map((r) => ({ id: r.id, name: r.name }));
    if (withCatalog) body.catalog = catalog(seed, baseUrl, project.id);
  }
  if (t.appCredId) {
    const cred = dir.appCredById(t.appCredId);
    body.application_credential = { id: t.appCredId, name: cred?.name, restricted: true };
  }
  return { token: body };
}
