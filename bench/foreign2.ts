/**
 * Foreign bills, a second set (issue 20, session 11): another generator of daily bills, written without
 * reading the forecast model, its corpus (bench/corpus.ts) or its tuning, to check the forecast on
 * mechanisms the first foreign set (bench/foreign.ts: a fleet of servers stepping up and down) does not
 * model. Only the {@link ForeignSeries} type is shared, so the replay (bench/foreign-tune.ts `--set foreign2`)
 * reads both sets alike.
 *
 * What it models, each a {@link Part} mixed into ten profiles (about 1 … 20,000 a day; three start late):
 * - an **autoscaled web tier**: nodes per hour follow a daily and a weekly traffic shape, a slow growth and
 *   a November sales peak (Black Friday 27 November, Cyber Monday 30 November);
 * - a **price change** of the cloud on a date (+5 % list price, a discount ending, a cut);
 * - **snapshots** that grow every day and are pruned once a month (a sawtooth);
 * - a project **idle in holiday weeks** (Easter, August): the team's servers shelved;
 * - **GPU batch jobs** that run for a few days then stop (on/off bursts, partial first and last days);
 * - a **migration**: new servers added a few a day over about two weeks, then the old ones removed;
 * - **reserved capacity** billed monthly on the 1st or on the 31st (the last day in shorter months), plus
 *   hourly overage above it in business hours;
 * - **egress billed monthly in arrears** (last month's traffic on a day early in the next month);
 * - **late invoices at month boundaries** (the month's last days billed on the 1st or 2nd) and single days
 *   billed with the next;
 * - a **team that doubles** (in September, over one or two weeks);
 * - a **steady bill with rare large one-offs**.
 *
 * Each series is a profile with a seed: the profile fixes which mechanisms and their ranges, the seed draws
 * dates, sizes and noise within them. Every series covers FOREIGN_FIRST (2026-03-01, or the profile's later
 * start) to FOREIGN_LAST (2026-11-30), cents rounded, with a sorted story (`YYYY-MM-DD: …`) of what happened.
 *
 * Splits ({@link FOREIGN2_SPLITS}): series `i` of a group is profile `i` with seed `base + i`.
 * **foreign2-tune** is groups 8101 and 8201 (diagnosis allowed); **foreign2-heldout** is 9301 and 9401, only
 * ever reported, never chosen on. Profiles are not edited to suit the model: add one instead.
 */
import { type ForeignSeries, FRESH_SPLITS, seriesOfSeeds } from "./foreign";

const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** The first and last day of every series (UTC day indexes), the same as bench/foreign.ts's. */
export const FOREIGN2_FIRST = dayOf("2026-03-01");
export const FOREIGN2_LAST = dayOf("2026-11-30");

/** A range a seed draws from (uniformly). */
type Range = readonly [number, number];

/** One mechanism of a bill; a profile mixes several. Dates are `YYYY-MM-DD`; prices are per hour. */
export type Part =
  /** Servers on all the time (some shelved on weekends); the team's, so holidays and team changes touch them. */
  | { kind: "fleet"; servers: number; hourly: Range; weekendOff: number; volumePerDay: Range }
  /** An autoscaled tier: nodes per hour = base × daily × weekly shape × growth × November peak. */
  | {
      kind: "autoscale";
      nodes: Range;
      hourly: Range;
      /** Traffic by weekday, Monday … Sunday. */
      weekly: readonly number[];
      /** Growth a month, as a share (0.02 = 2 %). */
      growth: Range;
      /** The factor on Black Friday, with a ramp from early November; 1 = no peak. */
      peak: Range;
      minNodes: number;
    }
  /** A price change of the cloud on a date drawn in `on`: every usage part × (1 + change) from then on. */
  | { kind: "price"; on: readonly [string, string]; change: Range; what: string }
  /** Snapshots: GB added a day, pruned on day `pruneDay` of each month down to `keep` of them. */
  | { kind: "snapshots"; gbPerDay: Range; startGb: Range; keep: Range; pruneDay: number; perGbMonth: number }
  /** Holidays: the team's parts (fleet, GPU) run at `1 − idle` in these weeks. */
  | { kind: "holiday"; weeks: readonly (readonly [string, string])[]; idle: Range }
  /** GPU batch jobs: a mean gap (days) between starts, a length in days, GPUs and their hourly price. */
  | { kind: "gpu"; gapDays: Range; days: Range; gpus: Range; hourly: Range }
  /** A migration starting in `on`: `share` of the fleet rebuilt on new servers priced × `newPrice`. */
  | { kind: "migration"; on: readonly [string, string]; perDay: Range; overlapDays: Range; newPrice: Range }
  /** Reserved instances billed monthly on `day` (31 = the month's last day when shorter), overage hourly. */
  | { kind: "reserved"; count: Range; monthly: Range; hourly: Range; overage: Range; day: 1 | 31 }
  /** Egress: GB a day (weekday-shaped), billed for the whole month on `day` of the next month. */
  | { kind: "arrears"; gbPerDay: Range; perGb: number; day: number }
  /** Late billing: chance a month's last 1–3 days arrive on the 1st or 2nd; chance a day arrives with the next. */
  | { kind: "late"; monthEnd: number; daily: number }
  /** The team doubles: from a day in `on`, servers added over `rampDays` until the fleet is × `factor`. */
  | { kind: "team"; on: readonly [string, string]; rampDays: Range; factor: Range }
  /** One-offs: how many in the series (drawn), each a multiple of a typical day. */
  | { kind: "oneOffs"; count: Range; size: Range }
  /** Multiplicative day-to-day noise of usage (sd of the log). */
  | { kind: "noise"; sd: Range };

/** A profile: a name, its first seed, a later start if any, and its parts. */
export interface Profile2 {
  name: string;
  seed: number;
  start?: string;
  parts: readonly Part[];
}

const WEEKDAY_OFFICE = [1.1, 1.05, 1.05, 1, 0.95, 0.45, 0.4] as const;
const WEEKDAY_SHOP = [0.9, 0.9, 0.95, 1, 1.1, 1.3, 1.25] as const;
const HOLIDAYS = [
  ["2026-04-02", "2026-04-06"],
  ["2026-08-03", "2026-08-23"],
] as const;

/** The ten profiles, with the seeds of the first tune group (8101–8110). */
export const FOREIGN2_PROFILES: readonly Profile2[] = [
  {
    name: "shop-autoscale",
    seed: 8101,
    parts: [
      {
        kind: "autoscale",
        nodes: [14, 26],
        hourly: [0.18, 0.34],
        weekly: WEEKDAY_SHOP,
        growth: [0.01, 0.03],
        peak: [1.8, 2.8],
        minNodes: 4,
      },
      { kind: "fleet", servers: 4, hourly: [0.3, 0.7], weekendOff: 0, volumePerDay: [4, 9] },
      {
        kind: "snapshots",
        gbPerDay: [60, 140],
        startGb: [800, 2000],
        keep: [0.15, 0.3],
        pruneDay: 1,
        perGbMonth: 0.05,
      },
      { kind: "price", on: ["2026-06-25", "2026-07-06"], change: [0.04, 0.06], what: "list price" },
      { kind: "arrears", gbPerDay: [300, 900], perGb: 0.01, day: 3 },
      { kind: "noise", sd: [0.02, 0.04] },
    ],
  },
  {
    name: "b2b-saas-reserved",
    seed: 8102,
    parts: [
      {
        kind: "autoscale",
        nodes: [30, 60],
        hourly: [0.2, 0.4],
        weekly: WEEKDAY_OFFICE,
        growth: [0, 0.02],
        peak: [1, 1.15],
        minNodes: 10,
      },
      {
        kind: "reserved",
        count: [40, 80],
        monthly: [180, 260],
        hourly: [0.35, 0.5],
        overage: [4, 16],
        day: 31,
      },
      { kind: "late", monthEnd: 0.5, daily: 0.02 },
      { kind: "noise", sd: [0.01, 0.03] },
    ],
  },
  {
    name: "ml-lab-gpu",
    seed: 8103,
    parts: [
      { kind: "fleet", servers: 6, hourly: [0.1, 0.4], weekendOff: 0.3, volumePerDay: [10, 25] },
      { kind: "gpu", gapDays: [6, 16], days: [2, 6], gpus: [2, 8], hourly: [2.1, 3.4] },
      {
        kind: "snapshots",
        gbPerDay: [200, 600],
        startGb: [5000, 12000],
        keep: [0.3, 0.5],
        pruneDay: 15,
        perGbMonth: 0.04,
      },
      { kind: "holiday", weeks: HOLIDAYS, idle: [0.6, 0.9] },
      { kind: "noise", sd: [0.02, 0.05] },
    ],
  },
  {
    name: "agency-holiday",
    seed: 8104,
    parts: [
      { kind: "fleet", servers: 5, hourly: [0.02, 0.09], weekendOff: 0.5, volumePerDay: [0.5, 1.5] },
      { kind: "reserved", count: [1, 2], monthly: [15, 30], hourly: [0.04, 0.06], overage: [0, 1], day: 1 },
      { kind: "holiday", weeks: HOLIDAYS, idle: [0.5, 0.8] },
      {
        kind: "price",
        on: ["2026-05-25", "2026-06-05"],
        change: [0.15, 0.25],
        what: "first-year discount ended",
      },
      { kind: "late", monthEnd: 0.3, daily: 0.06 },
      { kind: "noise", sd: [0.03, 0.08] },
    ],
  },
  {
    name: "retail-migration",
    seed: 8105,
    parts: [
      { kind: "fleet", servers: 40, hourly: [0.2, 0.6], weekendOff: 0, volumePerDay: [40, 80] },
      {
        kind: "migration",
        on: ["2026-05-04", "2026-06-22"],
        perDay: [2, 4],
        overlapDays: [3, 10],
        newPrice: [0.8, 0.95],
      },
      { kind: "oneOffs", count: [1, 3], size: [3, 10] },
      { kind: "late", monthEnd: 0, daily: 0.05 },
      { kind: "noise", sd: [0.01, 0.03] },
    ],
  },
  {
    name: "startup-doubling",
    seed: 8106,
    start: "2026-06-15",
    parts: [
      { kind: "fleet", servers: 6, hourly: [0.05, 0.25], weekendOff: 0.4, volumePerDay: [2, 5] },
      { kind: "team", on: ["2026-09-01", "2026-09-14"], rampDays: [5, 14], factor: [1.8, 2.2] },
      {
        kind: "snapshots",
        gbPerDay: [10, 30],
        startGb: [50, 200],
        keep: [0.2, 0.4],
        pruneDay: 1,
        perGbMonth: 0.05,
      },
      { kind: "arrears", gbPerDay: [20, 80], perGb: 0.01, day: 2 },
      { kind: "noise", sd: [0.03, 0.06] },
    ],
  },
  {
    name: "bank-reserved",
    seed: 8107,
    parts: [
      {
        kind: "reserved",
        count: [60, 100],
        monthly: [150, 200],
        hourly: [0.3, 0.45],
        overage: [5, 25],
        day: 1,
      },
      { kind: "fleet", servers: 80, hourly: [0.4, 1.2], weekendOff: 0, volumePerDay: [300, 600] },
      { kind: "oneOffs", count: [1, 2], size: [2, 5] },
      { kind: "price", on: ["2026-09-28", "2026-10-02"], change: [0.05, 0.05], what: "list price" },
      { kind: "noise", sd: [0.005, 0.015] },
    ],
  },
  {
    name: "render-farm-late",
    seed: 8108,
    start: "2026-10-05",
    parts: [
      { kind: "fleet", servers: 3, hourly: [0.1, 0.3], weekendOff: 0, volumePerDay: [3, 8] },
      { kind: "gpu", gapDays: [3, 8], days: [1, 4], gpus: [4, 16], hourly: [1.8, 3.0] },
      { kind: "late", monthEnd: 0.6, daily: 0.04 },
      { kind: "noise", sd: [0.02, 0.04] },
    ],
  },
  {
    name: "edu-semester",
    seed: 8109,
    parts: [
      { kind: "fleet", servers: 24, hourly: [0.03, 0.15], weekendOff: 0.6, volumePerDay: [10, 20] },
      { kind: "holiday", weeks: HOLIDAYS, idle: [0.7, 0.95] },
      { kind: "team", on: ["2026-09-28", "2026-10-09"], rampDays: [7, 14], factor: [1.4, 2] },
      {
        kind: "snapshots",
        gbPerDay: [40, 120],
        startGb: [1000, 3000],
        keep: [0.2, 0.4],
        pruneDay: 15,
        perGbMonth: 0.04,
      },
      { kind: "price", on: ["2026-07-01", "2026-07-01"], change: [-0.1, -0.06], what: "education price cut" },
      { kind: "noise", sd: [0.02, 0.05] },
    ],
  },
  {
    name: "logistics-steady",
    seed: 8110,
    start: "2026-04-20",
    parts: [
      { kind: "fleet", servers: 20, hourly: [0.1, 0.5], weekendOff: 0, volumePerDay: [20, 40] },
      {
        kind: "reserved",
        count: [10, 20],
        monthly: [120, 180],
        hourly: [0.25, 0.35],
        overage: [2, 8],
        day: 31,
      },
      { kind: "arrears", gbPerDay: [500, 1500], perGb: 0.01, day: 4 },
      { kind: "oneOffs", count: [2, 4], size: [5, 20] },
      { kind: "late", monthEnd: 0.2, daily: 0.03 },
      { kind: "noise", sd: [0.01, 0.02] },
    ],
  },
];

/** A small PRNG of its own (splitmix32 seeding sfc32): nothing shared with the model's corpus. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  const split = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  return () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4_294_967_296;
  };
}

/** The draws of one part: its own stream, so the parts of a profile do not shift each other's draws. */
function draws(seed: number, part: number) {
  const r = prng(seed * 131 + part * 7_919 + 17);
  const pick = ([lo, hi]: Range) => lo + (hi - lo) * r();
  const int = ([lo, hi]: Range) => Math.floor(lo + (hi - lo + 1) * r());
  const gauss = () => Math.sqrt(-2 * Math.log(Math.max(1e-12, r()))) * Math.cos(2 * Math.PI * r());
  const date = ([lo, hi]: readonly [string, string]) => int([dayOf(lo), dayOf(hi)]);
  return { r, pick, int, gauss, date };
}

const monthLength = (day: number) => {
  const d = new Date(day * DAY_MS);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
};
const dom = (day: number) => new Date(day * DAY_MS).getUTCDate();
/** Monday 0 … Sunday 6. */
const weekday = (day: number) => (new Date(day * DAY_MS).getUTCDay() + 6) % 7;
const monthName = (day: number) =>
  new Date(day * DAY_MS).toLocaleString("en", { month: "long", timeZone: "UTC" });
const money = (x: number) => x.toFixed(2);

/** A server of the team's fleet, billed by the hour from `from` to `to` (hours since the series' first day). */
interface Server {
  hourly: number;
  shelvedOnWeekends: boolean;
  from: number;
  to: number;
}

/** The day buckets a part adds to; holidays touch `team`, price changes `team`, `service` and `storage`. */
interface Days {
  team: number[];
  service: number[];
  storage: number[];
  /** Monthly items, one-offs, invoices in arrears: billed as they are. */
  charges: number[];
}

/**
 * generateForeign2 builds one series from its profile (and the profile's seed): deterministic, cents
 * rounded, finite and non-negative, from the profile's start to 30 November 2026.
 */
export function generateForeign2(p: Profile2): ForeignSeries {
  const firstDay = Math.max(FOREIGN2_FIRST, dayOf(p.start ?? "2026-03-01"));
  const n = FOREIGN2_LAST - firstDay + 1;
  const zeros = () => new Array<number>(n).fill(0);
  const days: Days = { team: zeros(), service: zeros(), storage: zeros(), charges: zeros() };
  const story: string[] = [];
  const tell = (i: number, what: string) => story.push(`${isoOf(firstDay + i)}: ${what}`);
  const index = (day: number) => Math.min(n - 1, Math.max(0, day - firstDay));
  const partOf = <K extends Part["kind"]>(kind: K) =>
    p.parts.find((x) => x.kind === kind) as Extract<Part, { kind: K }> | undefined;
  const drawsOf = (kind: Part["kind"]) =>
    draws(
      p.seed,
      p.parts.findIndex((x) => x.kind === kind),
    );

  // the team's fleet: servers, changed by a migration or a team that grows
  const fleet = partOf("fleet");
  const servers: Server[] = [];
  if (fleet) {
    const d = drawsOf("fleet");
    const server = (from: number, priceFactor = 1): Server => ({
      hourly: d.pick(fleet.hourly) * priceFactor,
      shelvedOnWeekends: d.r() < fleet.weekendOff,
      from,
      to: Number.POSITIVE_INFINITY,
    });
    for (let k = 0; k < fleet.servers; k++) servers.push(server(0));
    const volumes = d.pick(fleet.volumePerDay);
    for (let i = 0; i < n; i++) days.storage[i]! += volumes;

    const migration = partOf("migration");
    if (migration) {
      const m = drawsOf("migration");
      const start = index(m.date(migration.on));
      const factor = m.pick(migration.newPrice);
      const old = servers.filter((s) => s.from === 0);
      let added = 0;
      let day = start;
      while (added < old.length && day < n) {
        const today = Math.min(old.length - added, m.int(migration.perDay));
        for (let k = 0; k < today; k++) servers.push(server(day * 24 + 8 + m.int([0, 9]), factor));
        added += today;
        day++;
      }
      tell(
        start,
        `migration began: new servers added a few a day (${Math.round((1 - factor) * 100)} % cheaper)`,
      );
      const removeFrom = day + m.int(migration.overlapDays);
      const removeDays = m.int([1, 3]);
      for (const [k, s] of old.entries()) s.to = (removeFrom + (k % removeDays)) * 24 + 10 + m.int([0, 8]);
      if (removeFrom < n)
        tell(removeFrom, `migration: the ${old.length} old servers removed over ${removeDays} day(s)`);
    }

    const team = partOf("team");
    if (team) {
      const t = drawsOf("team");
      const start = index(t.date(team.on));
      const ramp = t.int(team.rampDays);
      const factor = t.pick(team.factor);
      const live = servers.filter((s) => s.to === Number.POSITIVE_INFINITY).length;
      const more = Math.round(live * (factor - 1));
      for (let k = 0; k < more; k++) servers.push(server((start + Math.floor((k * ramp) / more)) * 24 + 9));
      tell(start, `team grows: ${more} servers added over ${ramp} days (fleet ×${factor.toFixed(2)})`);
    }

    for (let i = 0; i < n; i++) {
      const weekend = weekday(firstDay + i) >= 5;
      let cost = 0;
      for (const s of servers) {
        const hours = Math.max(0, Math.min(i * 24 + 24, s.to) - Math.max(i * 24, s.from));
        if (hours > 0 && !(weekend && s.shelvedOnWeekends)) cost += s.hourly * hours;
      }
      days.team[i]! += cost;
    }
  }

  const autoscale = partOf("autoscale");
  if (autoscale) {
    const d = drawsOf("autoscale");
    const base = d.pick(autoscale.nodes);
    const hourly = d.pick(autoscale.hourly);
    const growth = d.pick(autoscale.growth);
    const peak = d.pick(autoscale.peak);
    const blackFriday = dayOf("2026-11-27");
    const rampFrom = dayOf("2026-11-02");
    for (let i = 0; i < n; i++) {
      const day = firstDay + i;
      const season =
        day < rampFrom
          ? 1
          : day >= blackFriday
            ? peak
            : 1 + ((peak - 1) * 0.4 * (day - rampFrom)) / (blackFriday - rampFrom);
      const trend = (1 + growth) ** ((day - FOREIGN2_FIRST) / 30);
      const daily = Math.exp(d.gauss() * 0.05);
      let nodes = 0;
      for (let h = 0; h < 24; h++) {
        const diurnal = 0.6 + 0.4 * Math.sin(((h - 8) / 24) * 2 * Math.PI);
        nodes += Math.max(
          autoscale.minNodes,
          Math.ceil(base * diurnal * autoscale.weekly[weekday(day)]! * season * trend * daily),
        );
      }
      days.service[i]! += nodes * hourly;
    }
    tell(
      0,
      `autoscaled tier: ${base.toFixed(0)} nodes at the start, growing ${(growth * 100).toFixed(1)} % a month`,
    );
    if (peak > 1.05 && blackFriday <= FOREIGN2_LAST)
      tell(
        index(rampFrom),
        `November sales ramp; autoscaled peak ×${peak.toFixed(2)} from Black Friday 2026-11-27`,
      );
  }

  const gpu = partOf("gpu");
  if (gpu) {
    const d = drawsOf("gpu");
    const gap = d.pick(gpu.gapDays);
    let at = Math.floor(-Math.log(Math.max(1e-9, d.r())) * gap) * 24 + d.int([0, 23]);
    while (at < n * 24) {
      const length = Math.round(d.pick(gpu.days) * 24);
      const count = d.int(gpu.gpus);
      const price = d.pick(gpu.hourly) * count;
      for (let h = at; h < Math.min(n * 24, at + length); h++) days.team[Math.floor(h / 24)]! += price;
      tell(Math.floor(at / 24), `GPU batch job: ${count} GPUs for ${(length / 24).toFixed(1)} days`);
      at += length + Math.max(12, Math.floor(-Math.log(Math.max(1e-9, d.r())) * gap * 24));
    }
  }

  const snapshots = partOf("snapshots");
  if (snapshots) {
    const d = drawsOf("snapshots");
    const perDay = d.pick(snapshots.gbPerDay);
    const keep = d.pick(snapshots.keep);
    let gb = d.pick(snapshots.startGb);
    for (let i = 0; i < n; i++) {
      if (dom(firstDay + i) === snapshots.pruneDay && i > 0) {
        const after = gb * keep;
        tell(i, `snapshots pruned, ${gb.toFixed(0)} → ${after.toFixed(0)} GB`);
        gb = after;
      }
      gb += perDay * (0.7 + 0.6 * d.r());
      days.storage[i]! += (gb * snapshots.perGbMonth) / 30;
    }
  }

  const reserved = partOf("reserved");
  if (reserved) {
    const d = drawsOf("reserved");
    const count = d.int(reserved.count);
    const monthly = d.pick(reserved.monthly) * count;
    const hourly = d.pick(reserved.hourly);
    const overage = d.pick(reserved.overage);
    for (let i = 0; i < n; i++) {
      const day = firstDay + i;
      const billDay = Math.min(reserved.day, monthLength(day));
      if (dom(day) === billDay) {
        days.charges[i]! += monthly;
        const when =
          reserved.day === 1
            ? "on the 1st"
            : billDay === 31
              ? "on the 31st"
              : `on the ${billDay}th (no 31st)`;
        tell(i, `reserved capacity billed ${when}: ${count} instances, ${money(monthly)}`);
      }
      // overage: instances above the reserved ones, in business hours on weekdays
      if (weekday(day) < 5) days.service[i]! += overage * (0.5 + d.r()) * 10 * hourly;
    }
  }

  const arrears = partOf("arrears");
  if (arrears) {
    const d = drawsOf("arrears");
    const perDay = d.pick(arrears.gbPerDay);
    let month = 0;
    for (let i = 0; i < n; i++) {
      const day = firstDay + i;
      month += perDay * WEEKDAY_OFFICE[weekday(day)]! * Math.exp(d.gauss() * 0.15) * arrears.perGb;
      if (dom(day) === monthLength(day)) {
        const billed = index(day + arrears.day);
        if (day + arrears.day <= FOREIGN2_LAST) {
          days.charges[billed]! += month;
          tell(billed, `${monthName(day)} egress billed in arrears: ${money(month)}`);
        }
        month = 0;
      }
    }
  }

  const price = partOf("price");
  const pd = price ? drawsOf("price") : undefined;
  const priceFrom = price && pd ? index(pd.date(price.on)) : n;
  const change = price && pd ? pd.pick(price.change) : 0;
  if (price) {
    const sign = change >= 0 ? "+" : "−";
    tell(priceFrom, `price change: ${sign}${Math.abs(change * 100).toFixed(1)} % (${price.what})`);
  }

  const holiday = partOf("holiday");
  const idleOn = new Set<number>();
  if (holiday) {
    const d = drawsOf("holiday");
    const idle = d.pick(holiday.idle);
    for (const [from, to] of holiday.weeks) {
      if (dayOf(to) < firstDay) continue;
      for (let day = dayOf(from); day <= dayOf(to); day++) if (day >= firstDay) idleOn.add(day - firstDay);
      tell(index(dayOf(from)), `holiday until ${to}: the team's servers ${(idle * 100).toFixed(0)} % idle`);
    }
    for (const i of idleOn) days.team[i]! *= 1 - idle;
  }

  const noise = partOf("noise");
  const nd = noise ? drawsOf("noise") : undefined;
  const sd = noise && nd ? nd.pick(noise.sd) : 0;
  const cost: number[] = [];
  for (let i = 0; i < n; i++) {
    const priced = i >= priceFrom ? 1 + change : 1;
    const jitter = nd ? Math.exp(nd.gauss() * sd) : 1;
    cost.push(
      (days.team[i]! * jitter + days.service[i]! * jitter + days.storage[i]!) * priced + days.charges[i]!,
    );
  }

  const oneOffs = partOf("oneOffs");
  if (oneOffs) {
    const d = drawsOf("oneOffs");
    const count = d.int(oneOffs.count);
    for (let k = 0; k < count; k++) {
      const i = d.int([Math.min(20, n - 1), n - 1]);
      const typical = [...cost.slice(Math.max(0, i - 14), i)].sort((a, b) => a - b)[7] ?? cost[i]!;
      const extra = typical * d.pick(oneOffs.size);
      cost[i]! += extra;
      tell(i, `one-off ${d.r() < 0.5 ? "licence" : "professional services"} invoice of ${money(extra)}`);
    }
  }

  // billing: a month's last days on the 1st or 2nd; a day with the next
  const late = partOf("late");
  const billed = [...cost];
  if (late) {
    const d = drawsOf("late");
    for (let i = 0; i < n; i++) {
      const day = firstDay + i;
      if (dom(day) === monthLength(day) && d.r() < late.monthEnd) {
        const held = d.int([1, 3]);
        const into = i + d.int([1, 2]);
        if (into >= n || i - held + 1 < 0) continue;
        for (let k = i - held + 1; k <= i; k++) {
          billed[into]! += billed[k]!;
          billed[k] = 0;
        }
        tell(
          i - held + 1,
          `late invoice: the month's last ${held} day(s) billed on ${isoOf(firstDay + into)}`,
        );
      }
    }
    for (let i = 0; i < n - 1; i++)
      if (billed[i]! > 0 && d.r() < late.daily) {
        billed[i + 1]! += billed[i]!;
        billed[i] = 0;
        tell(i, "billed with the next day");
      }
  }

  const daily = billed.map((x) => Math.max(0, Math.round(x * 100) / 100));
  story.sort();
  return { name: p.name, seed: p.seed, firstDay, daily, story };
}

/**
 * The first seed of each group of ten series (series `i` of a group is profile `i` with seed `base + i`).
 * {@link FRESH_SPLITS}: the probe and confirm splits.
 */
export const FOREIGN2_SPLITS = {
  tune: [8101, 8201],
  heldout: [9301, 9401],
  ...FRESH_SPLITS,
} as const;

/**
 * foreign2Split is a split's series: every profile with each of the split's seed groups
 * ({@link FOREIGN2_SPLITS}), named `profile/seed`. `heldout` is for reporting only.
 *
 * @example
 * for (const s of foreign2Split("tune")) console.log(s.name, s.daily.length);
 */
export function foreign2Split(split: keyof typeof FOREIGN2_SPLITS): ForeignSeries[] {
  return seriesOfSeeds(FOREIGN2_PROFILES, FOREIGN2_SPLITS[split], generateForeign2);
}
