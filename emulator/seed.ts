/**
 * The emulator's seeded world: Keystone domains, projects, users, roles and application
 * credentials, the console access tokens of the billing endpoint, and the billing projects.
 * Everything is derived from the seed, so the same seed prints the same credentials on every start.
 */
import { type BillingProjectInput, PRODUCTS } from "./billing/data";
import { dayString } from "./billing/days";
import { Rng } from "./prng";

/** SeedDomain is a Keystone domain. */
export interface SeedDomain {
  id: string;
  name: string;
}

/** SeedRole is a Keystone role. */
export interface SeedRole {
  id: string;
  name: string;
}

/** SeedProject is a Keystone project; `billingProjectId` is its `externalSubscriptionId` (docs/API.md#billing-parameters). */
export interface SeedProject {
  id: string;
  name: string;
  domain: SeedDomain;
  billingProjectId: number;
}

/** SeedUser is a Keystone user, its password and the projects it has roles on. */
export interface SeedUser {
  id: string;
  name: string;
  domain: SeedDomain;
  password: string;
  /** Project ids on which the user has the member and reader roles. */
  projectIds: string[];
}

/** SeedApplicationCredential is an application credential (docs/API.md#application-credentials) of a user, bound to a project. */
export interface SeedApplicationCredential {
  id: string;
  name: string;
  secret: string;
  userId: string;
  projectId: string;
}

/** SeedBillingToken is a console access token (docs/API.md#console-access-tokens), sent as `X-User-Token`. */
export interface SeedBillingToken {
  token: string;
  name: string;
  role: "Administrator" | "Read-only" | "Accountant" | "Engineer";
}

/** SeedBillingProject describes one seeded billing project. */
export interface SeedBillingProject {
  id: number;
  /** productIds the project has (docs/API.md#billing-parameters): 1 cloud platform, 2 object storage, 3 virtualization suite. */
  products: number[];
  description: string;
}

/**
 * SeedData is everything the emulator was seeded with: credentials to paste, ids to query.
 * `billing.tokens` may be pushed to at run time to accept another `X-User-Token`.
 */
export interface SeedData {
  seed: string | number;
  regionId: string;
  domains: { default: SeedDomain; customers: SeedDomain };
  roles: { member: SeedRole; reader: SeedRole };
  projects: { demo: SeedProject; staging: SeedProject };
  users: { demo: SeedUser; unicode: SeedUser };
  applicationCredentials: { demo: SeedApplicationCredential; unicode: SeedApplicationCredential };
  billing: {
    /** The console access tokens the billing endpoint accepts (`X-User-Token`). */
    tokens: SeedBillingToken[];
    /** The first token, for convenience. */
    token: string;
    projects: SeedBillingProject[];
    projectIds: number[];
    /** The main demo project (4242): products 1 and 2, a spike in the last 30 days. */
    demoProjectId: number;
    negativeBalanceProjectId: number;
    zeroConsumptionProjectId: number;
    /** The spike day of the demo project, `YYYY-MM-DD` (relative to the clock at start). */
    spikeDay: string;
  };
}

/** The seed used when none is given. */
export const DEFAULT_SEED = "demo";

/**
 * buildSeed derives the seeded world from a seed; `todayIndex` (UTC day index of the clock) only
 * places the spike day. Returns the data and the billing projects to load.
 */
export function buildSeed(
  seed: string | number,
  todayIndex: number,
): { data: SeedData; billingProjects: BillingProjectInput[] } {
  const key = String(seed);
  const id = (label: string) => new Rng(key, "id", label).hex(16);
  const secret = (label: string) => new Rng(key, "secret", label).base64url(64);

  const defaultDomain: SeedDomain = { id: "default", name: "Default" };
  const customers: SeedDomain = { id: id("domain:customers"), name: "customers" };
  const demoProject: SeedProject = {
    id: id("project:demo"),
    name: "demo-project",
    domain: customers,
    billingProjectId: 4242,
  };
  const staging: SeedProject = {
    id: id("project:staging"),
    name: "staging",
    domain: customers,
    billingProjectId: 1001,
  };
  const demoUser: SeedUser = {
    id: id("user:demo"),
    name: "demo",
    domain: defaultDomain,
    password: `demo-${new Rng(key, "password", "demo").hex(6)}`,
    projectIds: [demoProject.id],
  };
  const unicodeUser: SeedUser = {
    id: id("user:marta"),
    name: "marta",
    domain: customers,
    password: `pässwörd-${new Rng(key, "password", "marta").hex(4)}-日本`,
    projectIds: [demoProject.id, staging.id],
  };
  const tokenRng = new Rng(key, "billing-tokens");

  const rng = new Rng(key, "billing-projects");
  const spikeDaysAgo = rng.int(3, 20);
  const between = (lo: number, hi: number) => rng.int(Math.round(lo * 100), Math.round(hi * 100)) / 100;
  const billingProjects: BillingProjectInput[] = [
    {
      id: 4242,
      products: {
        [PRODUCTS.openstack]: {
          balance: between(30_000, 60_000),
          bonuses: between(500, 3_000),
          generate: { baseDaily: between(1_100, 1_500), spikeDaysAgo },
        },
        [PRODUCTS.objectStorage]: {
          balance: between(1_000, 5_000),
          bonuses: 0,
          generate: { baseDaily: between(40, 90) },
        },
      },
    },
    {
      id: 1001,
      products: {
        [PRODUCTS.openstack]: {
          balance: between(5_000, 20_000),
          bonuses: between(0, 500),
          // a new service 10 days ago: the forecast's change-point check has to see it
          generate: { baseDaily: between(150, 400), historyDays: 700, stepDaysAgo: 10, stepFactor: 1.8 },
        },
      },
    },
    {
      id: 1002,
      products: {
        [PRODUCTS.vmware]: {
          balance: between(20_000, 80_000),
          bonuses: between(1_000, 5_000),
          generate: { baseDaily: between(600, 900), historyDays: 900 },
        },
      },
    },
    {
      id: 1003,
      products: {
        [PRODUCTS.openstack]: {
          balance: -between(200, 1_500),
          bonuses: 0,
          generate: { baseDaily: between(80, 200), historyDays: 400 },
        },
      },
    },
    {
      id: 1004,
      products: {
        [PRODUCTS.openstack]: {
          balance: between(1_000, 5_000),
          bonuses: 0,
          generate: { baseDaily: 0, historyDays: 120, zero: true },
        },
      },
    },
    {
      id: 1005,
      products: {
        [PRODUCTS.openstack]: {
          balance: between(3_000, 8_000),
          bonuses: 0,
          // 9 full days and today: the forecast is a run-rate, marked low confidence
          generate: { baseDaily: between(100, 300), historyDays: 10 },
        },
      },
    },
  ];
  const describe: Record<number, string> = {
    4242: "demo project: cloud platform and object storage, a spike day in the last 30 days",
    1001: "staging: cloud platform, a step up 10 days ago (a new service)",
    1002: "virtualization suite only",
    1003: "negative balance",
    1004: "zero consumption",
    1005: "new project: 9 days of history",
  };

  const data: SeedData = {
    seed,
    regionId: "RegionOne",
    domains: { default: defaultDomain, customers },
    roles: {
      member: { id: id("role:member"), name: "member" },
      reader: { id: id("role:reader"), name: "reader" },
    },
    projects: { demo: demoProject, staging },
    users: { demo: demoUser, unicode: unicodeUser },
    applicationCredentials: {
      demo: {
        id: id("appcred:demo"),
        name: "demo-appcred",
        secret: secret("appcred:demo"),
        userId: demoUser.id,
        projectId: demoProject.id,
      },
      unicode: {
        id: id("appcred:marta"),
        name: "marta-appcred",
        secret: secret("appcred:marta"),
        userId: unicodeUser.id,
        projectId: demoProject.id,
      },
    },
    billing: {
      tokens: [
        { token: tokenRng.hex(32), name: "costgate-accountant", role: "Accountant" },
        { token: tokenRng.hex(32), name: "costgate-read-only", role: "Read-only" },
      ],
      token: "",
      projects: billingProjects.map((p) => ({
        id: p.id,
        products: Object.keys(p.products).map(Number),
        description: describe[p.id] ?? "",
      })),
      projectIds: billingProjects.map((p) => p.id).sort((a, b) => a - b),
      demoProjectId: 4242,
      negativeBalanceProjectId: 1003,
      zeroConsumptionProjectId: 1004,
      spikeDay: dayString(todayIndex - spikeDaysAgo),
    },
  };
  data.billing.token = data.billing.tokens[0]?.token ?? "";
  return { data, billingProjects };
}
