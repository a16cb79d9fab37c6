/**
 * The token body Keystone returns from POST and GET /v3/auth/tokens (Keystone API reference,
 * "Password authentication with scoped authorization" response), normalized for users.
 */
import type * as Zod from "zod";
import { perProcess } from "../once";
import { zod } from "../zod";

// Every field costgate stores or prints is checked here: a bounded length, no control characters,
// times in Keystone's ISO 8601 form, catalog URLs that are http(s) without credentials. A message
// says what is wrong, never the value (it may be anything a hostile endpoint chose).

/** The longest id or name taken (Keystone's columns are 64 and 255 characters). @internal */
export const MAX_NAME_CHARS = 255;
/** The longest catalog URL taken. @internal */
export const MAX_URL_CHARS = 2048;
/** The most catalog endpoints taken, all services together. @internal */
export const MAX_CATALOG_ENDPOINTS = 10_000;
/** The most roles, methods or audit ids taken. @internal */
export const MAX_LIST = 1_000;

// C0/C1 controls, line and paragraph separators, bidirectional overrides and isolates
const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
// zod is required when the schema is first built (provider/zod.ts), not when this module loads
const text = (max = MAX_NAME_CHARS) =>
  zod()
    .string({ error: "must be a string" })
    .max(max, { error: `is longer than ${max} characters` })
    .refine((s) => !UNSAFE.test(s), { error: "has control characters" });
const id = () => text().min(1, { error: "is empty" });
const word = (max = 64) =>
  zod()
    .string({ error: "must be a string" })
    .regex(new RegExp(`^[A-Za-z0-9_.:-]{1,${max}}$`), {
      error: `must be 1 to ${max} letters, digits or _ . : -`,
    });
const list = <T extends Zod.z.ZodType>(item: T, max = MAX_LIST) =>
  zod()
    .array(item, { error: "must be a list" })
    .max(max, { error: `has more than ${max} entries` });

/** ISO 8601 as Keystone writes it (`2026-11-24T10:00:00.000000Z`), or with a numeric offset. */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/;

/**
 * parseKeystoneTime reads a Keystone time as epoch ms, or undefined when it is not ISO 8601 as
 * Keystone writes it or names a day or hour that does not exist (`2026-02-30`, `T25:00`).
 * @internal
 */
export function parseKeystoneTime(raw: string): number | undefined {
  const m = ISO_TIME.exec(raw);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const oh = m[9] === undefined ? 0 : Number(m[9]);
  const om = m[10] === undefined ? 0 : Number(m[10]);
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) return undefined;
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (d < 1 || day.getUTCMonth() !== mo - 1) return undefined;
  const t = Date.parse(raw);
  return Number.isNaN(t) ? undefined : t;
}

const time = () =>
  zod()
    .string({ error: "must be a string" })
    .max(64, { error: "is not a time" })
    .refine((s) => parseKeystoneTime(s) !== undefined, {
      error: "is not an ISO 8601 time as Keystone writes it (e.g. 2026-11-24T10:00:00.000000Z)",
    });

/** catalogUrlProblem says what makes a catalog URL unusable, or undefined when it is a plain http(s) URL. @internal */
export function catalogUrlProblem(raw: string): string | undefined {
  if (raw.length > MAX_URL_CHARS) return `is longer than ${MAX_URL_CHARS} characters`;
  if (/[\s\p{Cc}]/u.test(raw) || UNSAFE.test(raw)) return "has spaces or control characters";
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return "is not a URL";
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return "is not an http(s) URL";
  if (u.username || u.password) return "carries credentials (user info)";
  return undefined;
}

const catalogUrl = () =>
  zod()
    .string({ error: "must be a string" })
    .superRefine((s, ctx) => {
      const problem = catalogUrlProblem(s);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });

/**
 * @internal tokenBodySchema is `{ token: {...} }` as Keystone sends it, built once per process at the first
 * token read (provider/once.ts). Objects strip what they do not name: toTokenInfo reads only these fields.
 */
export const tokenBodySchema = () => perProcess(buildTokenBodySchema);

function buildTokenBodySchema() {
  const z = zod();
  const Ref = z.object({ id: id(), name: text().optional() });
  const DomainRef = Ref;

  const EndpointSchema = z.object({
    id: id().optional(),
    interface: word(),
    region_id: text().nullish(),
    region: text().nullish(),
    url: catalogUrl(),
  });

  const ServiceSchema = z.object({
    id: id().optional(),
    type: word(MAX_NAME_CHARS),
    name: text().optional(),
    endpoints: list(EndpointSchema).default([]),
  });

  return z.object({
    token: z
      .object({
        methods: list(word(), 16).default([]),
        expires_at: time(),
        issued_at: time().optional(),
        audit_ids: list(word(), 16).optional(),
        user: Ref.extend({ domain: DomainRef.optional() }),
        project: Ref.extend({ domain: DomainRef.optional() }).optional(),
        domain: DomainRef.optional(),
        roles: list(Ref).optional(),
        catalog: list(ServiceSchema).optional(),
        application_credential: Ref.extend({ restricted: z.boolean().optional() }).optional(),
      })
      .superRefine((t, ctx) => {
        const endpoints = (t.catalog ?? []).reduce((n, s) => n + s.endpoints.length, 0);
        if (endpoints > MAX_CATALOG_ENDPOINTS) {
          ctx.addIssue({
            code: "custom",
            path: ["catalog"],
            message: `has more than ${MAX_CATALOG_ENDPOINTS} endpoints`,
          });
        }
        if (t.issued_at !== undefined) {
          const issued = parseKeystoneTime(t.issued_at);
          const expires = parseKeystoneTime(t.expires_at);
          if (issued !== undefined && expires !== undefined && issued > expires) {
            ctx.addIssue({ code: "custom", path: ["issued_at"], message: "is after expires_at" });
          }
        }
      }),
  });
}

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

/** isoTime writes a checked Keystone time as ISO 8601 UTC with milliseconds. */
function isoTime(raw: string): string {
  return new Date(parseKeystoneTime(raw) ?? Number.NaN).toISOString();
}

function ref(r: { id: string; name?: string; domain?: { id: string; name?: string } }): EntityRef {
  const out: EntityRef = { id: r.id };
  if (r.name !== undefined) out.name = r.name;
  if (r.domain)
    out.domain = r.domain.name !== undefined ? { id: r.domain.id, name: r.domain.name } : { id: r.domain.id };
  return out;
}

/** toTokenInfo turns a parsed body into TokenInfo (no undefined inside arrays, JSON-safe). @internal */
export function toTokenInfo(body: Zod.z.infer<ReturnType<typeof tokenBodySchema>>): TokenInfo {
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
