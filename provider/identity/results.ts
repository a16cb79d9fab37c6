/**
 * The token body Keystone returns from POST and GET /v3/auth/tokens (Keystone API reference,
 * "Password authentication with scoped authorization" response), normalized for users.
 */
import { z } from "zod";

// Objects strip what they do not name: toTokenInfo reads only these fields.
const Ref = z.object({ id: z.string(), name: z.string().optional() });
const DomainRef = Ref;

const EndpointSchema = z.object({
  id: z.string().optional(),
  interface: z.string(),
  region_id: z.string().nullish(),
  region: z.string().nullish(),
  url: z.string(),
});

const ServiceSchema = z.object({
  id: z.string().optional(),
  type: z.string(),
  name: z.string().optional(),
  endpoints: z.array(EndpointSchema).default([]),
});

/** TokenBodySchema is `{ token: {...} }` as Keystone sends it. @internal */
export const TokenBodySchema = z.object({
  token: z.object({
    methods: z.array(z.string()).default([]),
    expires_at: z.string(),
    issued_at: z.string().optional(),
    audit_ids: z.array(z.string()).optional(),
    user: Ref.extend({ domain: DomainRef.optional() }),
    project: Ref.extend({ domain: DomainRef.optional() }).optional(),
    domain: DomainRef.optional(),
    roles: z.array(Ref).optional(),
    catalog: z.array(ServiceSchema).optional(),
    application_credential: Ref.extend({ restricted: z.boolean().optional() }).optional(),
  }),
});

/** A named reference to a Keystone entity. */
export interface EntityRef {
  id: string;
  name?: string;
  domain?: { id: string; name?: string };
}

/** One endpoint of a catalog service. */
export interface CatalogEndpoint {
  id?: string;
  interface: string;
  region?: string;
  url: string;
}

/** One service of the catalog. */
export interface CatalogService {
  type: string;
  name?: string;
  id?: string;
  endpoints: CatalogEndpoint[];
}

/** TokenInfo is what Keystone says about a token, normalized: times as ISO 8601 UTC with milliseconds. */
export interface TokenInfo {
  expiresAt: string;
  issuedAt?: string;
  methods: string[];
  auditIds: string[];
  user: EntityRef;
  project?: EntityRef;
  roles: { id: string; name?: string }[];
  catalog: CatalogService[];
  applicationCredential?: { id: string; name?: string; restricted?: boolean };
}

/** Token is an issued token: its id (the `X-Subject-Token` value, the OS_TOKEN) and what Keystone says of it. */
export interface Token extends TokenInfo {
  id: string;
}

function isoTime(raw: string): string {
  const d = new Date(raw);
  return Number.isNaN(d.getTime()) ? raw : d.toISOString();
}

function ref(r: { id: string; name?: string; domain?: { id: string; name?: string } }): EntityRef {
  const out: EntityRef = { id: r.id };
  if (r.name !== undefined) out.name = r.name;
  if (r.domain)
    out.domain = r.domain.name !== undefined ? { id: r.domain.id, name: r.domain.name } : { id: r.domain.id };
  return out;
}

/** toTokenInfo turns a parsed body into TokenInfo (no undefined inside arrays, JSON-safe). @internal */
export function toTokenInfo(body: z.infer<typeof TokenBodySchema>): TokenInfo {
  const t = body.token;
  const info: TokenInfo = {
    expiresAt: isoTime(t.expires_at),
    methods: t.methods,
    auditIds: t.audit_ids ?? [],
    user: ref(t.user),
    roles: (t.roles ?? []).map((r) => (r.name !== undefined ? { id: r.id, name: r.name } : { id: r.id })),
    catalog: (t.catalog ?? []).map((s) => {
      const svc: CatalogService = {
        type: s.type,
        endpoints: s.endpoints.map((e) => {
          const ep: CatalogEndpoint = { interface: e.interface, url: e.url };
          if (e.id) ep.id = e.id;
          const region = e.region_id ?? e.region;
          if (region) ep.region = region;
          return ep;
        }),
      };
      if (s.name !== undefined) svc.name = s.name;
      if (s.id !== undefined) svc.id = s.id;
      return svc;
    }),
  };
  if (t.issued_at) info.issuedAt = isoTime(t.issued_at);
  if (t.project) info.project = ref(t.project);
  if (t.application_credential) {
    const ac = t.application_credential;
    info.applicationCredential = { id: ac.id };
    if (ac.name !== undefined) info.applicationCredential.name = ac.name;
    if (ac.restricted !== undefined) info.applicationCredential.restricted = ac.restricted;
  }
  return info;
}
