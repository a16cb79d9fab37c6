/**
 * Foreign bills, a third set (issue 20, session 11): a third generator of daily bills, written without
 * reading the forecast model, its corpus or its tuning, on exactly the four mechanisms the issue names for
 * the unseen series — steps of 8–30 %, items billed monthly, billing delays, idle weekends — each built
 * another way than in bench/foreign.ts and bench/foreign2.ts. Only the {@link ForeignSeries} type is shared,
 * so the replay (bench/foreign-tune.ts `--set foreign3`) reads it like the other two.
 *
 * How a bill is made here: a team lives in a time zone (with its summer time and its public holidays) and
 * runs **pools** of servers of named **flavours**, billed by the half hour and summed into **UTC days**, so
 * whatever the team does at local midnight or in a local afternoon can land across two UTC days.
 * - **Steps**: a few servers created (or deleted) one by one over a local afternoon; servers resized to a
 *   bigger flavour in a Saturday-night window; a price change of one flavour at the provider's midnight
 *   (in its own zone: 22:00 or 23:00 UTC the day before).
 * - **Items billed on a day**: monthly on the 2nd, 15th, 28th, 29th, 30th or 31st (in a shorter month on its
 *   last day, or rolled to the next month's 1st — then that month holds two); quarterly, in advance, on the
 *   quarter's first Monday; in arrears on the first Monday of the next month (a share of last month's use);
 *   a monthly amount that changes (seats added and removed, a percentage of last month's use).
 * - **Delays**: billing-pipeline outages (1–3 days of zeros, or of compute missing, then one catch-up) and a
 *   month's last day billed on the next month's 1st.
 * - **Idle time** in local time: some pools shelved on the local weekend (from Friday evening UTC east of
 *   Greenwich, into Monday morning UTC west of it), a team that also idles on Fridays, office-hours pools,
 *   batch jobs, public holidays; volumes of shelved servers still billed, traffic with a local daily shape.
 *
 * Ten profiles, each a mix, from a few euros a day (cents rounding visible: each line of a day is rounded,
 * then summed) to about 100,000 a day; two start mid-month. Every series ends on FOREIGN3_LAST (2026-11-30)
 * and tells a sorted story (`YYYY-MM-DD: …`) of what happened.
 *
 * Splits ({@link FOREIGN3_SPLITS}): series `i` of a group is profile `i` with seed `base + i`.
 * **foreign3-tune** is groups 8301 and 8401 (diagnosis allowed); **foreign3-heldout** is 9501 and 9601, only
 * ever reported, never chosen on. Profiles are not edited to suit the model: add one instead.
 */
import { type ForeignSeries, FRESH_SPLITS, seriesOfSeeds } from "./foreign";

const DAY_MS = 86_400_000;
/** Billing slots a day: half hours (a zone such as Asia/Kolkata is 5.5 h from UTC). */
const SLOTS = 48;
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** The first and last day of every series (UTC day indexes). */
export const FOREIGN3_FIRST = dayOf("2026-03-01");
export const FOREIGN3_LAST = dayOf("2026-11-30");

/** A range a seed draws from (uniformly). */
type Range = readonly [number, number];

/** A time zone: its standard offset from UTC (hours) and when summer time (+1 h) holds, as UTC hours. */
export interface Zone {
  name: string;
  utc: number;
  /** `YYYY-MM-DDTHH` (UTC) when summer time starts and ends; `southern`: it holds outside this span. */
  summer?: readonly [string, string];
  southern?: boolean;
}

const EU_SUMMER = ["2026-03-29T01", "2026-10-25T01"] as const;
const ZONES = {
  tokyo: { name: "Asia/Tokyo", utc: 9 },
  berlin: { name: "Europe/Berlin", utc: 1, summer: EU_SUMMER },
  frankfurt: { name: "Europe/Berlin (the provider)", utc: 1, summer: EU_SUMMER },
  london: { name: "Europe/London", utc: 0, summer: EU_SUMMER },
  paris: { name: "Europe/Paris", utc: 1, summer: EU_SUMMER },
  newYork: { name: "America/New_York", utc: -5, summer: ["2026-03-08T07", "2026-11-01T06"] },
  chicago: { name: "America/Chicago", utc: -6, summer: ["2026-03-08T08", "2026-11-01T07"] },
  losAngeles: { name: "America/Los_Angeles", utc: -8, summer: ["2026-03-08T10", "2026-11-01T09"] },
  sydney: { name: "Australia/Sydney", utc: 10, summer: ["2026-04-04T16", "2026-10-03T16"], southern: true },
  kolkata: { name: "Asia/Kolkata", utc: 5.5 },
  nairobi: { name: "Africa/Nairobi", utc: 3 },
} as const satisfies Record<string, Zone>;

/** Public holidays of 2026 (local dates) that the teams observe. */
const HOLIDAYS = {
  jp: ["03-20", "04-29", "05-04", "05-05", "05-06", "07-20", "08-11", "09-21", "09-22", "09-23", "10-12"],
  de: ["04-03", "04-06", "05-01", "05-14", "05-25", "10-03"],
  us: ["05-25", "06-19", "07-03", "09-07", "11-11", "11-26", "11-27"],
  uk: ["04-03", "04-06", "05-04", "05-25", "08-31"],
  au: ["04-03", "04-04", "04-06", "06-08", "10-05"],
  fr: ["04-06", "05-01", "05-08", "05-14", "05-25", "07-14", "11-11"],
  in: ["03-04", "03-20", "04-03", "05-01", "10-02", "10-20", "11-09"],
  ke: ["04-03", "04-06", "05-01", "05-27", "06-01", "10-20"],
} as const;

/** When a pool's servers run, in the team's local time. */
export type Runs =
  /** All the time. */
  | "always"
  /** Shelved from local Saturday 00:00 to Monday 00:00 (and on holidays when the pool observes them). */
  | "weekdays"
  /** A four-day week: shelved from local Friday 00:00 to Monday 00:00. */
  | "mon-thu"
  /** Working days, 08:00–19:00 local. */
  | "office"
  /** Batch jobs: a varying share of the pool in local office hours of working days. */
  | "jobs";

/** A pool of servers of one flavour; each server has a volume billed while it exists (shelved or not). */
export interface Pool {
  name: string;
  flavour: string;
  count: Range;
  runs: Runs;
  /** Off on the team's public holidays too. */
  holidays?: boolean;
  /** GB of volume per server. */
  gb: number;
  /** The flavour a resize moves some of its servers to. */
  resizeTo?: string;
}

/** An item billed on a day rather than by the hour. */
export interface Item {
  what: string;
  /** The amount (or, for `seats`, the price of one seat; for `usage`, ignored). */
  amount: Range;
  /** A day of the month, the quarter's first Monday (in advance), or the next month's first Monday (arrears). */
  on: number | "quarter-first-monday" | "first-monday-arrears";
  /** Days 29–31 in a shorter month: billed on its last day (`clamp`) or on the next month's 1st (`roll`). */
  shorter?: "clamp" | "roll";
  /** A changing amount: seats (start count, chance a month of a change), or a share of last month's use. */
  varies?: { kind: "seats"; seats: Range; chance: number } | { kind: "usage"; share: Range };
}

/** One bill's profile: the team, its pools, what changes and how it is billed. */
export interface Profile3 {
  name: string;
  seed: number;
  /** First billed day, `YYYY-MM-DD` (default 2026-03-01). */
  start?: string;
  zone: Zone;
  holidays: readonly string[];
  /** Hourly price of each flavour. */
  flavours: Readonly<Record<string, Range>>;
  pools: readonly Pool[];
  /** Volumes: price per GB-month. */
  storage: number;
  /** Egress: GB per running server and hour (local daily shape, lower on weekends), its price, day noise. */
  traffic: { gb: Range; perGb: number; noise: Range };
  /** Fleet steps: how many, their size (share of the pool), kinds, local window (hours) and pools. */
  steps: {
    count: Range;
    size: Range;
    kinds: readonly ("rollout" | "decommission" | "resize")[];
    window: readonly [number, number];
    pools: readonly string[];
  };
  /** Price changes of one flavour at the provider's midnight (a share, negative for a cut). */
  reprices?: { count: Range; change: Range; zone: Zone; what: string };
  items: readonly Item[];
  /** Pipeline outages (how many, days long, chance only compute is missing) and late month ends (how many). */
  delays: { outages: Range; days: Range; computeOnly: number; monthEnds: Range };
}

/** The ten profiles, with the seeds of the first tune group (8301–8310). */
export const FOREIGN3_PROFILES: readonly Profile3[] = [
  {
    name: "tokyo-saas",
    seed: 8301,
    zone: ZONES.tokyo,
    holidays: HOLIDAYS.jp,
    flavours: { "c2.large": [0.19, 0.23], "m2.xlarge": [0.52, 0.6], "m2.2xlarge": [1.04, 1.2] },
    pools: [
      { name: "web", flavour: "c2.large", count: [30, 40], runs: "always", gb: 40 },
      { name: "batch", flavour: "m2.xlarge", count: [8, 12], runs: "weekdays", holidays: true, gb: 200 },
      { name: "dev", flavour: "c2.large", count: [10, 16], runs: "office", holidays: true, gb: 60 },
      { name: "db", flavour: "m2.xlarge", count: [4, 6], runs: "always", gb: 500, resizeTo: "m2.2xlarge" },
    ],
    storage: 0.1,
    traffic: { gb: [0.8, 1.6], perGb: 0.09, noise: [0.05, 0.12] },
    steps: {
      count: [5, 9],
      size: [0.08, 0.3],
      kinds: ["rollout", "decommission", "resize"],
      window: [7, 12],
      pools: ["web", "batch", "db"],
    },
    items: [
      { what: "support plan", amount: [280, 320], on: 28 },
      {
        what: "licence seats",
        amount: [18, 24],
        on: 2,
        varies: { kind: "seats", seats: [10, 20], chance: 0.5 },
      },
    ],
    delays: { outages: [1, 3], days: [1, 3], computeOnly: 0.3, monthEnds: [0, 2] },
  },
  {
    name: "berlin-agency-quiet",
    seed: 8302,
    zone: ZONES.berlin,
    holidays: HOLIDAYS.de,
    flavours: { "s1.small": [0.028, 0.034], "s1.tiny": [0.011, 0.013] },
    pools: [
      { name: "sites", flavour: "s1.small", count: [2, 4], runs: "always", gb: 20 },
      { name: "staging", flavour: "s1.tiny", count: [1, 3], runs: "weekdays", holidays: true, gb: 10 },
    ],
    storage: 0.045,
    traffic: { gb: [0.02, 0.06], perGb: 0.01, noise: [0.1, 0.3] },
    steps: {
      count: [2, 4],
      size: [0.2, 0.34],
      kinds: ["rollout", "decommission"],
      window: [14, 19],
      pools: ["sites"],
    },
    items: [
      { what: "domains and DNS", amount: [1.19, 1.19], on: 15 },
      { what: "backup plan", amount: [4.9, 4.9], on: 31, shorter: "roll" },
    ],
    delays: { outages: [0, 2], days: [1, 2], computeOnly: 0, monthEnds: [1, 4] },
  },
  {
    name: "us-retail-100k",
    seed: 8303,
    zone: ZONES.newYork,
    holidays: HOLIDAYS.us,
    flavours: { "c5.4xl": [0.68, 0.75], "r5.2xl": [0.5, 0.55], "db.8xl": [3.6, 4] },
    pools: [
      { name: "web", flavour: "c5.4xl", count: [4000, 4800], runs: "always", gb: 50 },
      { name: "analytics", flavour: "r5.2xl", count: [600, 900], runs: "weekdays", holidays: true, gb: 400 },
      { name: "db", flavour: "db.8xl", count: [60, 80], runs: "always", gb: 2000 },
    ],
    storage: 0.08,
    traffic: { gb: [0.3, 0.6], perGb: 0.05, noise: [0.04, 0.1] },
    steps: {
      count: [5, 9],
      size: [0.08, 0.25],
      kinds: ["rollout", "decommission"],
      window: [15, 21],
      pools: ["web", "analytics"],
    },
    reprices: { count: [1, 1], change: [0.08, 0.15], zone: ZONES.frankfurt, what: "list price" },
    items: [
      {
        what: "enterprise support (3 % of last month)",
        amount: [0, 0],
        on: 2,
        varies: { kind: "usage", share: [0.03, 0.03] },
      },
      { what: "reserved commitment, quarterly", amount: [300_000, 450_000], on: "quarter-first-monday" },
    ],
    delays: { outages: [1, 3], days: [1, 3], computeOnly: 0.5, monthEnds: [0, 2] },
  },
  {
    name: "london-four-day",
    seed: 8304,
    zone: ZONES.london,
    holidays: HOLIDAYS.uk,
    flavours: { "g2.medium": [0.085, 0.095], "g2.large": [0.17, 0.19] },
    pools: [
      { name: "dev", flavour: "g2.medium", count: [20, 30], runs: "mon-thu", holidays: true, gb: 80 },
      { name: "ci", flavour: "g2.large", count: [10, 16], runs: "jobs", holidays: true, gb: 30 },
      { name: "prod", flavour: "g2.large", count: [5, 8], runs: "always", gb: 100 },
    ],
    storage: 0.1,
    traffic: { gb: [0.2, 0.5], perGb: 0.08, noise: [0.05, 0.15] },
    steps: {
      count: [3, 6],
      size: [0.1, 0.3],
      kinds: ["rollout", "decommission"],
      window: [13, 18],
      pools: ["dev", "ci"],
    },
    items: [
      {
        what: "source hosting seats",
        amount: [19, 21],
        on: 28,
        varies: { kind: "seats", seats: [25, 35], chance: 0.6 },
      },
      { what: "security monitoring, quarterly", amount: [900, 1300], on: "quarter-first-monday" },
    ],
    delays: { outages: [1, 2], days: [1, 2], computeOnly: 0, monthEnds: [1, 3] },
  },
  {
    name: "sydney-mining",
    seed: 8305,
    zone: ZONES.sydney,
    holidays: HOLIDAYS.au,
    flavours: { "m5.4xl": [0.9, 1], "m5.8xl": [1.8, 2], "t3.large": [0.1, 0.12] },
    pools: [
      {
        name: "sim",
        flavour: "m5.4xl",
        count: [40, 60],
        runs: "weekdays",
        holidays: true,
        gb: 300,
        resizeTo: "m5.8xl",
      },
      { name: "prod", flavour: "t3.large", count: [15, 25], runs: "always", gb: 50 },
    ],
    storage: 0.12,
    traffic: { gb: [0.1, 0.3], perGb: 0.11, noise: [0.05, 0.15] },
    steps: {
      count: [4, 7],
      size: [0.08, 0.3],
      kinds: ["rollout", "decommission", "resize"],
      window: [12, 17],
      pools: ["sim"],
    },
    items: [
      { what: "site licence", amount: [1400, 1600], on: 31, shorter: "clamp" },
      { what: "geodata feed", amount: [300, 450], on: 30 },
    ],
    delays: { outages: [0, 2], days: [1, 3], computeOnly: 0.2, monthEnds: [2, 5] },
  },
  {
    name: "paris-research-midmonth",
    seed: 8306,
    start: "2026-05-18",
    zone: ZONES.paris,
    holidays: HOLIDAYS.fr,
    flavours: { "g4.2xl": [2.9, 3.3], "c3.large": [0.12, 0.14] },
    pools: [
      { name: "gpu", flavour: "g4.2xl", count: [4, 8], runs: "jobs", holidays: true, gb: 500 },
      { name: "login", flavour: "c3.large", count: [2, 3], runs: "always", gb: 100 },
      { name: "notebooks", flavour: "c3.large", count: [6, 12], runs: "office", holidays: true, gb: 50 },
    ],
    storage: 0.06,
    traffic: { gb: [0.1, 0.2], perGb: 0.02, noise: [0.1, 0.2] },
    steps: {
      count: [2, 4],
      size: [0.12, 0.3],
      kinds: ["rollout", "decommission"],
      window: [10, 17],
      pools: ["gpu", "notebooks"],
    },
    items: [
      { what: "storage allocation", amount: [120, 160], on: 29, shorter: "clamp" },
      {
        what: "HPC overage (in arrears)",
        amount: [0, 0],
        on: "first-monday-arrears",
        varies: { kind: "usage", share: [0.05, 0.1] },
      },
    ],
    delays: { outages: [1, 2], days: [2, 3], computeOnly: 0, monthEnds: [0, 1] },
  },
  {
    name: "chicago-fintech-arrears",
    seed: 8307,
    zone: ZONES.chicago,
    holidays: HOLIDAYS.us,
    flavours: { "c6.xl": [0.17, 0.19], "r6.2xl": [0.5, 0.56] },
    pools: [
      { name: "api", flavour: "c6.xl", count: [60, 90], runs: "always", gb: 60 },
      { name: "risk", flavour: "r6.2xl", count: [20, 30], runs: "weekdays", holidays: false, gb: 250 },
    ],
    storage: 0.1,
    traffic: { gb: [0.3, 0.7], perGb: 0.07, noise: [0.03, 0.08] },
    steps: {
      count: [6, 10],
      size: [0.08, 0.22],
      kinds: ["rollout", "decommission"],
      window: [14, 20],
      pools: ["api", "risk"],
    },
    items: [
      {
        what: "log archive (in arrears)",
        amount: [0, 0],
        on: "first-monday-arrears",
        varies: { kind: "usage", share: [0.04, 0.06] },
      },
      { what: "HSM", amount: [1500, 1500], on: 2 },
    ],
    delays: { outages: [2, 4], days: [1, 3], computeOnly: 0.5, monthEnds: [0, 1] },
  },
  {
    name: "kolkata-devshop-midmonth",
    seed: 8308,
    start: "2026-07-09",
    zone: ZONES.kolkata,
    holidays: HOLIDAYS.in,
    flavours: { "b2.medium": [0.045, 0.05], "b2.large": [0.09, 0.1] },
    pools: [
      { name: "dev", flavour: "b2.medium", count: [30, 45], runs: "weekdays", holidays: true, gb: 40 },
      { name: "prod", flavour: "b2.large", count: [8, 12], runs: "always", gb: 80 },
    ],
    storage: 0.08,
    traffic: { gb: [0.1, 0.3], perGb: 0.08, noise: [0.05, 0.15] },
    steps: {
      count: [2, 4],
      size: [0.1, 0.3],
      kinds: ["rollout", "decommission"],
      window: [15, 20],
      pools: ["dev"],
    },
    reprices: {
      count: [1, 1],
      change: [0.18, 0.25],
      zone: ZONES.frankfurt,
      what: "first-year discount ended",
    },
    items: [{ what: "monitoring", amount: [40, 60], on: 30 }],
    delays: { outages: [1, 2], days: [1, 2], computeOnly: 0, monthEnds: [0, 2] },
  },
  {
    name: "la-media-encoding",
    seed: 8309,
    zone: ZONES.losAngeles,
    holidays: HOLIDAYS.us,
    flavours: { "c5.9xl": [1.5, 1.7], "c5.2xl": [0.34, 0.38] },
    pools: [
      { name: "encode", flavour: "c5.9xl", count: [180, 260], runs: "always", gb: 1000 },
      { name: "review", flavour: "c5.2xl", count: [20, 40], runs: "weekdays", holidays: true, gb: 200 },
    ],
    storage: 0.05,
    traffic: { gb: [5, 10], perGb: 0.02, noise: [0.05, 0.12] },
    steps: {
      count: [5, 8],
      size: [0.08, 0.2],
      kinds: ["decommission", "decommission", "rollout"],
      window: [14, 19],
      pools: ["encode"],
    },
    reprices: { count: [1, 1], change: [-0.12, -0.08], zone: ZONES.frankfurt, what: "price cut" },
    items: [
      {
        what: "CDN commitment (tiered on last month)",
        amount: [0, 0],
        on: 15,
        varies: { kind: "usage", share: [0.04, 0.05] },
      },
      { what: "support, quarterly", amount: [9000, 12_000], on: "quarter-first-monday" },
    ],
    delays: { outages: [1, 3], days: [1, 3], computeOnly: 0.3, monthEnds: [0, 2] },
  },
  {
    name: "nairobi-ngo-tiny",
    seed: 8310,
    zone: ZONES.nairobi,
    holidays: HOLIDAYS.ke,
    flavours: { "a1.micro": [0.04, 0.05], "a1.nano": [0.009, 0.011] },
    pools: [
      { name: "site", flavour: "a1.micro", count: [1, 2], runs: "always", gb: 20 },
      { name: "sync", flavour: "a1.nano", count: [1, 3], runs: "office", holidays: true, gb: 5 },
    ],
    storage: 0.05,
    traffic: { gb: [0.01, 0.04], perGb: 0.09, noise: [0.2, 0.4] },
    steps: {
      count: [1, 3],
      size: [0.3, 0.5],
      kinds: ["rollout", "decommission"],
      window: [9, 16],
      pools: ["site", "sync"],
    },
    items: [
      { what: "hosting plan", amount: [4.99, 4.99], on: 2 },
      { what: "floating IP", amount: [0.99, 0.99], on: 31, shorter: "roll" },
    ],
    delays: { outages: [1, 2], days: [1, 3], computeOnly: 0, monthEnds: [1, 3] },
  },
];

/** A PRNG of its own (xoshiro128**, seeded by hashing the seed with a stream's label): one stream a mechanism. */
function stream(seed: number, label: string) {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  const next = () => {
    h = (h + 0x6d2b79f5) >>> 0;
    let z = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
    z = Math.imul(z ^ (z >>> 12), 0x297a2d39);
    return (z ^ (z >>> 15)) >>> 0;
  };
  let a = next() | 1;
  let b = next();
  let c = next();
  let d = next();
  const rotl = (x: number, k: number) => (x << k) | (x >>> (32 - k));
  const r = () => {
    const out = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return out / 4_294_967_296;
  };
  const pick = ([lo, hi]: Range) => lo + (hi - lo) * r();
  const int = ([lo, hi]: Range) => Math.floor(lo + (hi - lo + 1) * r());
  const gauss = () => Math.sqrt(-2 * Math.log(Math.max(1e-12, r()))) * Math.cos(2 * Math.PI * r());
  return { r, pick, int, gauss };
}

/** The zone's offset from UTC (hours) at an absolute half-hour slot (slots since 1970). */
function offsetAt(z: Zone, slot: number): number {
  if (!z.summer) return z.utc;
  const from = Date.parse(`${z.summer[0]}:00:00Z`) / 1_800_000;
  const to = Date.parse(`${z.summer[1]}:00:00Z`) / 1_800_000;
  const inside = slot >= from && slot < to;
  return z.utc + (inside !== Boolean(z.southern) ? 1 : 0);
}

/** Monday 0 … Sunday 6 of a day index (1970-01-01 was a Thursday). */
const weekday = (day: number) => (day + 3) % 7;
const dom = (day: number) => new Date(day * DAY_MS).getUTCDate();
const monthLength = (day: number) => {
  const d = new Date(day * DAY_MS);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
};
const monthStart = (day: number) => day - dom(day) + 1;
const monthName = (day: number) =>
  new Date(day * DAY_MS).toLocaleString("en", { month: "long", timeZone: "UTC" });
const money = (x: number) => x.toFixed(2);
const pct = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(1)} %`;
const clock = (hours: number) => {
  const h = ((hours % 24) + 24) % 24;
  return `${String(Math.floor(h)).padStart(2, "0")}:${String(Math.round((h % 1) * 60)).padStart(2, "0")}`;
};
const cents = (x: number) => Math.round(x * 100) / 100;
const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : "th"}`;
const servers = (k: number) => `${k} server${k === 1 ? "" : "s"}`;

/** The team's local calendar of each slot of a series: weekday, hour and whether it is a holiday. */
interface Local {
  weekday: Int8Array;
  hour: Float32Array;
  holiday: Uint8Array;
}

function localCalendar(p: Profile3, firstDay: number, slots: number): Local {
  const holidays = new Set(p.holidays.map((md) => dayOf(`2026-${md}`)));
  const out: Local = {
    weekday: new Int8Array(slots),
    hour: new Float32Array(slots),
    holiday: new Uint8Array(slots),
  };
  for (let s = 0; s < slots; s++) {
    const abs = firstDay * SLOTS + s;
    const minutes = abs * 30 + offsetAt(p.zone, abs) * 60;
    const day = Math.floor(minutes / 1440);
    out.weekday[s] = weekday(day);
    out.hour[s] = (minutes - day * 1440) / 60;
    out.holiday[s] = holidays.has(day) ? 1 : 0;
  }
  return out;
}

/** The share of a pool's servers running in a slot (0 … 1); `r` draws the batch jobs' share. */
function running(pool: Pool, local: Local, s: number, r: () => number): number {
  const wd = local.weekday[s]!;
  const off = pool.holidays === true && local.holiday[s] === 1;
  const hour = local.hour[s]!;
  switch (pool.runs) {
    case "always":
      return 1;
    case "weekdays":
      return wd < 5 && !off ? 1 : 0;
    case "mon-thu":
      return wd < 4 && !off ? 1 : 0;
    case "office":
      return wd < 5 && !off && hour >= 8 && hour < 19 ? 1 : 0;
    case "jobs":
      return wd < 5 && !off && hour >= 8 && hour < 19 ? 0.25 + 0.75 * r() : 0;
  }
}

/** The UTC slot (of the series) of a local hour on the local day that starts in series day `i`. */
function slotAtLocal(p: Profile3, firstDay: number, i: number, hour: number): number {
  const abs = (firstDay + i) * SLOTS;
  return Math.round(i * SLOTS + (hour - offsetAt(p.zone, abs + hour * 2)) * 2);
}

/** A description of a pool's idle time in UTC, as it falls at the series' start. */
function idleInUtc(p: Profile3, pool: Pool, firstDay: number): string {
  const off = offsetAt(p.zone, firstDay * SLOTS);
  const names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
  const at = (wd: number, hour: number) => {
    const h = hour - off;
    const shift = Math.floor(h / 24);
    return `${names[(wd + shift + 7) % 7]} ${clock(h)}`;
  };
  const holidays = pool.holidays ? ", and on public holidays" : "";
  switch (pool.runs) {
    case "weekdays":
      return `shelved on local weekends (${at(5, 0)}–${at(0, 0)} UTC)${holidays}`;
    case "mon-thu":
      return `a four-day week: shelved Friday to Sunday local (${at(4, 0)}–${at(0, 0)} UTC)${holidays}`;
    case "office":
      return `runs in office hours only (08:00–19:00 local, ${clock(8 - off)}–${clock(19 - off)} UTC)${holidays}`;
    case "jobs":
      return `batch jobs in office hours (${clock(8 - off)}–${clock(19 - off)} UTC)${holidays}`;
    case "always":
      return "always on";
  }
}

/** Distinct series days in [lo, hi], `count` of them, at least `gap` apart where room allows; sorted. */
function spread(d: ReturnType<typeof stream>, count: number, lo: number, hi: number, gap: number): number[] {
  const out: number[] = [];
  for (let tries = 0; out.length < count && tries < count * 50; tries++) {
    const x = d.int([lo, hi]);
    if (out.every((y) => Math.abs(x - y) >= gap)) out.push(x);
  }
  return out.sort((a, b) => a - b);
}

/**
 * generateForeign3 builds one series from its profile (and the profile's seed): deterministic, every line of
 * a day cents rounded, finite and non-negative, from the profile's start to 30 November 2026.
 *
 * @example
 * const s = generateForeign3(FOREIGN3_PROFILES[0]!);
 * console.log(s.daily.length, s.story[0]);
 */
export function generateForeign3(p: Profile3): ForeignSeries {
  const firstDay = Math.max(FOREIGN3_FIRST, dayOf(p.start ?? "2026-03-01"));
  const n = FOREIGN3_LAST - firstDay + 1;
  const slots = n * SLOTS;
  const story: string[] = [];
  const tell = (i: number, what: string) =>
    story.push(`${isoOf(firstDay + Math.min(n - 1, Math.max(0, i)))}: ${what}`);
  const local = localCalendar(p, firstDay, slots);
  const inRange = (s: number) => Math.min(slots, Math.max(0, s));

  // flavour prices per slot, changed by repricing at the provider's midnight
  const fd = stream(p.seed, "flavours");
  const flavours = Object.keys(p.flavours);
  const price = new Map<string, Float64Array>();
  for (const f of flavours) price.set(f, new Float64Array(slots).fill(fd.pick(p.flavours[f]!)));
  if (p.reprices) {
    const d = stream(p.seed, "reprices");
    const used = [...new Set(p.pools.map((x) => x.flavour))];
    for (const day of spread(d, d.int(p.reprices.count), 10, n - 10, 20)) {
      const flavour = used[d.int([0, used.length - 1])]!;
      const change = d.pick(p.reprices.change);
      const abs = (firstDay + day) * SLOTS;
      const from = inRange(day * SLOTS - offsetAt(p.reprices.zone, abs) * 2);
      const prices = price.get(flavour)!;
      for (let s = from; s < slots; s++) prices[s]! *= 1 + change;
      tell(
        day,
        `price of flavour ${flavour} ${pct(change)} (${p.reprices.what}) from 00:00 ${p.reprices.zone.name}, ${clock(from / 2 - day * 24)} UTC the day before`,
      );
    }
  }

  // servers: per pool and flavour, +1/−1 at the slot a server is created or deleted (prefix-summed below)
  const pd = stream(p.seed, "pools");
  const deltas = new Map<string, Int32Array>();
  const key = (pool: string, flavour: string) => `${pool}|${flavour}`;
  const delta = (pool: string, flavour: string) => {
    let a = deltas.get(key(pool, flavour));
    if (!a) {
      a = new Int32Array(slots + 1);
      deltas.set(key(pool, flavour), a);
    }
    return a;
  };
  const live = new Map<string, number>();
  const start = new Map<string, number>();
  for (const pool of p.pools) {
    const count = pd.int(pool.count);
    delta(pool.name, pool.flavour)[0]! += count;
    live.set(key(pool.name, pool.flavour), count);
    start.set(pool.name, count);
    if (pool.resizeTo) live.set(key(pool.name, pool.resizeTo), 0);
    tell(
      0,
      `pool ${pool.name}: ${count} × ${pool.flavour} in ${p.zone.name}, ${idleInUtc(p, pool, firstDay)}`,
    );
  }
  const observing = p.pools.filter((x) => x.holidays && x.runs !== "always").map((x) => x.name);
  if (observing.length > 0)
    for (const md of p.holidays) {
      const day = dayOf(`2026-${md}`) - firstDay;
      if (day >= 0 && day < n) tell(day, `public holiday (${p.zone.name}): ${observing.join(", ")} off`);
    }
  const poolSize = (pool: Pool) => flavours.reduce((sum, f) => sum + (live.get(key(pool.name, f)) ?? 0), 0);

  const sd = stream(p.seed, "steps");
  const [wFrom, wTo] = p.steps.window;
  for (const day of spread(sd, sd.int(p.steps.count), 3, n - 3, 6)) {
    // the pool, weighted by what it costs an hour: steps of 8–30 % of a pool that matters
    const eligible = p.pools.filter((x) => p.steps.pools.includes(x.name));
    const weights = eligible.map((x) => poolSize(x) * price.get(x.flavour)![0]!);
    let pick = sd.r() * weights.reduce((a, b) => a + b, 0);
    let at = 0;
    while (at < eligible.length - 1 && pick >= weights[at]!) pick -= weights[at++]!;
    const pool = eligible[at]!;
    // a step's size is a share of the fleet's hourly cost (shelved or not), in servers of the pool's flavour
    const size = poolSize(pool);
    const share = sd.pick(p.steps.size);
    const unit = price.get(pool.flavour)![Math.min(slots - 1, day * SLOTS)]!;
    const fleet = p.pools.reduce(
      (sum, x) => sum + flavours.reduce((a, f) => a + (live.get(key(x.name, f)) ?? 0) * price.get(f)![0]!, 0),
      0,
    );
    const k = Math.max(1, Math.round((share * fleet) / unit));
    let kind = p.steps.kinds[sd.int([0, p.steps.kinds.length - 1])]!;
    const base = live.get(key(pool.name, pool.flavour)) ?? 0;
    if (kind === "resize" && (!pool.resizeTo || base < k)) kind = "rollout";
    if (kind === "decommission" && (base - k < 1 || size < 0.6 * start.get(pool.name)!)) kind = "rollout";
    if (kind === "rollout" && size > 1.8 * start.get(pool.name)! && base - k >= 1) kind = "decommission";
    if (kind === "resize") {
      // the next Saturday, 22:00 local, one server every half hour
      let sat = day;
      while (weekday(firstDay + sat) !== 5) sat++;
      if (sat >= n - 1) continue;
      const from = slotAtLocal(p, firstDay, sat, 22);
      for (let j = 0; j < k; j++) {
        const at = inRange(from + j);
        delta(pool.name, pool.flavour)[at]! -= 1;
        delta(pool.name, pool.resizeTo!)[at]! += 1;
      }
      live.set(key(pool.name, pool.flavour), base - k);
      live.set(key(pool.name, pool.resizeTo!), (live.get(key(pool.name, pool.resizeTo!)) ?? 0) + k);
      tell(
        sat,
        `resize: ${servers(k)} of ${pool.name} ${pool.flavour} → ${pool.resizeTo} from 22:00 local Saturday`,
      );
      continue;
    }
    const sign = kind === "rollout" ? 1 : -1;
    const from = slotAtLocal(p, firstDay, day, wFrom);
    const span = (wTo - wFrom) * 2;
    let first = slots;
    let last = 0;
    for (let j = 0; j < k; j++) {
      const at = inRange(from + Math.floor((j * span) / k) + sd.int([0, 1]));
      delta(pool.name, pool.flavour)[at]! += sign;
      first = Math.min(first, at);
      last = Math.max(last, at);
    }
    live.set(key(pool.name, pool.flavour), base + sign * k);
    const utc = (s: number) =>
      `${clock(s / 2 - Math.floor(s / SLOTS) * 24)} UTC ${isoOf(firstDay + Math.floor(s / SLOTS)).slice(5)}`;
    tell(
      day,
      `${kind}: ${servers(k)} of ${pool.name} (${pool.flavour}) ${kind === "rollout" ? "created" : "deleted"} ${clock(wFrom)}–${clock(wTo)} local (${utc(first)} – ${utc(last)}), ${pct((sign * k) / size)} of the pool, ${pct((sign * k * unit) / fleet)} of the fleet's hourly cost`,
    );
  }

  // usage lines per UTC day: compute, volumes, egress
  const compute = new Float64Array(n);
  const volumes = new Float64Array(n);
  const egress = new Float64Array(n);
  const jd = stream(p.seed, "jobs");
  const td = stream(p.seed, "traffic");
  const gbPerServer = td.pick(p.traffic.gb);
  const trafficSd = td.pick(p.traffic.noise);
  const dayNoise = Array.from({ length: n + 2 }, () => Math.exp(td.gauss() * trafficSd));
  const perGbSlot = p.storage / 730 / 2;
  const runningServers = new Float64Array(slots);
  for (const pool of p.pools) {
    const share = new Float64Array(slots);
    for (let s = 0; s < slots; s++) share[s] = running(pool, local, s, jd.r);
    for (const f of flavours) {
      const a = deltas.get(key(pool.name, f));
      if (!a) continue;
      const prices = price.get(f)!;
      let count = 0;
      for (let s = 0; s < slots; s++) {
        count += a[s]!;
        const i = Math.floor(s / SLOTS);
        compute[i]! += (count * share[s]! * prices[s]!) / 2;
        volumes[i]! += count * pool.gb * perGbSlot;
        runningServers[s]! += count * share[s]!;
      }
    }
  }
  for (let s = 0; s < slots; s++) {
    const hour = local.hour[s]!;
    const diurnal = 0.55 + 0.45 * Math.sin(((hour - 9) / 24) * 2 * Math.PI);
    const week = local.weekday[s]! >= 5 ? 0.6 : 1;
    const i = Math.floor(s / SLOTS);
    egress[i]! += (runningServers[s]! * gbPerServer * diurnal * week * dayNoise[i]! * p.traffic.perGb) / 2;
  }
  const usage = Array.from({ length: n }, (_, i) => compute[i]! + volumes[i]! + egress[i]!);

  // items billed on a day
  const charges = new Float64Array(n);
  const charge = (i: number, amount: number, what: string) => {
    if (i < 0 || i >= n) return;
    charges[i]! += cents(amount);
    tell(i, `${what}: ${money(cents(amount))}`);
  };
  const lastMonthUsage = (day: number) => {
    const to = monthStart(day) - 1;
    const from = monthStart(to);
    let sum = 0;
    for (let d = Math.max(from, firstDay); d <= to; d++) sum += usage[d - firstDay]!;
    return sum;
  };
  const firstMonday = (first: number) => {
    let d = first;
    while (weekday(d) !== 0) d++;
    return d;
  };
  for (const [k, item] of p.items.entries()) {
    const d = stream(p.seed, `item ${k}`);
    let amount = d.pick(item.amount);
    let seats = item.varies?.kind === "seats" ? d.int(item.varies.seats) : 0;
    const share = item.varies?.kind === "usage" ? d.pick(item.varies.share) : 0;
    for (let first = monthStart(firstDay); first <= FOREIGN3_LAST; first += monthLength(first)) {
      let day: number;
      let when: string;
      if (item.on === "quarter-first-monday") {
        if (new Date(first * DAY_MS).getUTCMonth() % 3 !== 0) continue;
        day = firstMonday(first);
        when = "billed quarterly in advance, the quarter's first Monday";
      } else if (item.on === "first-monday-arrears") {
        day = firstMonday(first);
        when = `${monthName(first - 1)} billed in arrears on the first Monday`;
      } else if (item.on <= monthLength(first)) {
        day = first + item.on - 1;
        when = `billed monthly on day ${item.on}`;
      } else if (item.shorter === "roll") {
        day = first + monthLength(first);
        when = `billed monthly on day ${item.on}, rolled to the 1st (${monthName(first)} has no ${ordinal(item.on)})`;
      } else {
        day = first + monthLength(first) - 1;
        when = `billed monthly on day ${item.on}, the month's last day (${monthName(first)} has no ${ordinal(item.on)})`;
      }
      if (day < firstDay || day > FOREIGN3_LAST) continue;
      if (item.varies?.kind === "seats") {
        if (d.r() < item.varies.chance) {
          const before = seats;
          seats = Math.max(1, seats + (d.r() < 0.6 ? 1 : -1) * d.int([1, 3]));
          when += `, seats ${before} → ${seats}`;
        }
        charge(day - firstDay, amount * seats, `${item.what} ${when}`);
      } else if (item.varies?.kind === "usage") {
        amount = lastMonthUsage(day) * share;
        if (amount > 0)
          charge(
            day - firstDay,
            amount,
            `${item.what} ${when} (${(share * 100).toFixed(1)} % of last month's use)`,
          );
      } else charge(day - firstDay, amount, `${item.what} ${when}`);
    }
  }

  // billing: each usage line cents rounded, then pipeline outages and late month ends move whole lines
  const lines = [compute, volumes, egress].map((xs) => Array.from(xs, cents));
  const dd = stream(p.seed, "delays");
  for (const day of spread(dd, dd.int(p.delays.outages), 2, n - 5, 10)) {
    const long = dd.int(p.delays.days);
    const computeOnly = dd.r() < p.delays.computeOnly;
    const moved = computeOnly ? [lines[0]!] : lines;
    for (const line of moved)
      for (let k = 0; k < long; k++) {
        line[day + long]! += line[day + k]!;
        line[day + k] = 0;
      }
    tell(
      day,
      `billing outage: ${computeOnly ? "compute of " : ""}${long} day(s) missing, caught up on ${isoOf(firstDay + day + long)}`,
    );
  }
  const monthEnds: number[] = [];
  for (let i = 0; i < n - 1; i++) if (dom(firstDay + i) === monthLength(firstDay + i)) monthEnds.push(i);
  const lateEnds = dd.int(p.delays.monthEnds);
  for (let k = 0; k < lateEnds && monthEnds.length > 0; k++) {
    const i = monthEnds.splice(dd.int([0, monthEnds.length - 1]), 1)[0]!;
    for (const line of lines) {
      line[i + 1]! += line[i]!;
      line[i] = 0;
    }
    tell(i, `the month's last day billed on the next month's 1st (${isoOf(firstDay + i + 1)})`);
  }

  const daily = Array.from({ length: n }, (_, i) =>
    Math.max(0, cents(lines[0]![i]! + lines[1]![i]! + lines[2]![i]! + charges[i]!)),
  );
  story.sort();
  return { name: p.name, seed: p.seed, firstDay, daily, story };
}

/**
 * The first seed of each group of ten series (series `i` of a group is profile `i` with seed `base + i`).
 * {@link FRESH_SPLITS}: the probe and confirm splits.
 */
export const FOREIGN3_SPLITS = {
  tune: [8301, 8401],
  heldout: [9501, 9601],
  ...FRESH_SPLITS,
} as const;

/**
 * foreign3Split is a split's series: every profile with each of the split's seed groups
 * ({@link FOREIGN3_SPLITS}), named `profile/seed`. `heldout` is for reporting only.
 *
 * @example
 * for (const s of foreign3Split("tune")) console.log(s.name, s.daily.length);
 */
export function foreign3Split(split: keyof typeof FOREIGN3_SPLITS): ForeignSeries[] {
  return seriesOfSeeds(FOREIGN3_PROFILES, FOREIGN3_SPLITS[split], generateForeign3);
}
