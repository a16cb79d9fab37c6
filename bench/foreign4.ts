/**
 * Foreign bills, a fourth set (issue 20, session 12): a fourth generator of daily bills, written without
 * reading the forecast model, its corpus, its tuning or the bodies of the other three foreign sets. Only the
 * {@link ForeignSeries} type and `seriesOfSeeds` are shared, so the replay (bench/foreign-tune.ts and
 * bench/check-replay.ts `--set foreign4`) reads it like the others.
 *
 * How a bill is made here: a **catalogue** of billable resources of an OpenStack public cloud, priced per hour
 * or per month ({@link FLAVOURS}, {@link PRICES}), and a team's resources simulated hour by hour; every line of
 * a day (a group's instances, volumes, snapshots, floating IPs, load balancers, object storage, egress, each
 * monthly item, each one-off) is rounded to cents, then summed. **Events are drawn from distributions** per
 * seed, each mechanism from its own random stream (so turning one off leaves the others' draws unchanged):
 * - **steps** of 8–30 % of the hourly bill, up or down, at exponential intervals: servers added or removed in
 *   business hours, a group resized to the next flavour on a weekend night, or the provider's list price
 *   changed at midnight — whichever realises the drawn size inside 8–30 % (a price change always does);
 * - **growth or decline**: a monthly trend on autoscaled groups, egress and object-storage growth;
 * - **items billed monthly**: licences per server of a group and fixed plans, on the 1st most often, else on
 *   another fixed day (5th–28th); a support plan, a share of last month's bill with a minimum, on the 1st;
 * - **idle weekends**: dev groups shelved Friday evening, unshelved Monday morning (their volumes still billed);
 * - **billing delays**: a day billed as zero, its charges arriving with the next day or split over the next
 *   two; a whole weekend arriving Monday; and **missing days** (a day never billed: charges waived);
 * - a rare **one-off**: a migration day (a group run twice in parallel for its working hours), a support
 *   incident, an egress burst (a bulk export).
 *
 * Ten profiles ({@link FOREIGN4_PROFILES}) mix these, from about 10 to about 50,000 a day. Histories start
 * from January 2025 (so a March 2026 forecast has a long history) to mid-2026 (two profiles start in June or
 * July 2026); every series ends on {@link FOREIGN4_LAST} (2026-11-30) and tells a sorted story
 * (`YYYY-MM-DD: …`). The replays evaluate only March–November 2026 (bench/foreign.ts `monthsOf`).
 *
 * Splits ({@link FOREIGN4_SPLITS}): series `i` of a group is profile `i` with seed `base + i`.
 * **foreign4-tune** is groups 8501 and 8601 (diagnosis allowed); **foreign4-heldout** is 9701 and 9801, only
 * ever reported, never chosen on. Profiles are not edited to suit the model: add one instead.
 */
import { type ForeignSeries, FRESH_SPLITS, seriesOfSeeds } from "./foreign";

const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** 0 Sunday … 6 Saturday (day 0, 1970-01-01, was a Thursday). */
const weekdayOf = (day: number) => (day + 4) % 7;
const dateOf = (day: number) => new Date(day * DAY_MS).getUTCDate();
const monthLengthOf = (day: number) => {
  const d = new Date(day * DAY_MS);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
};
const monthKey = (day: number) => isoOf(day).slice(0, 7);

/** The earliest first day of a series (UTC day index): histories reach back into 2025. */
export const FOREIGN4_FIRST = dayOf("2025-01-01");
/** The last day of every series. */
export const FOREIGN4_LAST = dayOf("2026-11-30");

/** Hours in a billing month: monthly prices are charged per hour as price ÷ 730. */
const HOURS_A_MONTH = 730;

/** Instance flavours and their list prices (euros an hour), smallest first. */
export const FLAVOURS: readonly (readonly [name: string, perHour: number])[] = [
  ["s1.tiny", 0.009],
  ["s1.small", 0.018],
  ["s1.medium", 0.036],
  ["m1.large", 0.072],
  ["m1.xlarge", 0.144],
  ["c1.2xlarge", 0.3],
  ["r1.4xlarge", 0.64],
  ["g1.gpu", 2.45],
];

/** The rest of the catalogue's list prices, in euros. */
export const PRICES = {
  volumeGbMonth: 0.08,
  snapshotGbMonth: 0.04,
  floatingIpHour: 0.0045,
  loadBalancerHour: 0.028,
  objectGbMonth: 0.021,
  egressGb: 0.009,
} as const;

/** Snapshots held per volume GB: a nightly snapshot of a tenth of it, kept 7 days. */
const SNAPSHOT_SHARE = 0.7;
/** What a volume GB costs a month with its snapshots. */
const STORAGE_GB_MONTH = PRICES.volumeGbMonth + SNAPSHOT_SHARE * PRICES.snapshotGbMonth;

type Range = readonly [number, number];

/** A group of servers of one flavour, each with its volume. */
export interface Group {
  name: string;
  /** A name of {@link FLAVOURS}. */
  flavour: string;
  count: Range;
  /** Volume GB per server (snapshots hold a tenth of it a day of retention, 7 days). */
  volumeGb: number;
  /** Shelved from Friday evening to Monday morning (UTC), volumes still billed. */
  idleWeekends?: boolean;
  /** Autoscaled: the count follows a daily shape of this amplitude (0.3 = ±30 %), the trend and some noise. */
  autoscale?: number;
  /** A licence per server of the group, billed monthly on `day` for the servers it has that morning. */
  licence?: { what: string; perServerMonth: number; day: number };
}

/** An item billed monthly on a day of the month: a fixed amount drawn per seed, or a share of last month. */
export type MonthlyItem =
  | { what: string; day: number; amount: Range }
  | { what: string; day: number; share: number; minimum: number };

/** The kinds of a step: servers added or removed, a resize, the provider's price change. */
export type StepKind = "servers" | "resize" | "price";

/** A team's cloud: what it runs and which mechanisms (with their ranges) its seeds draw from. */
export interface Profile4 {
  name: string;
  seed: number;
  /** The first billed day is drawn between these dates. */
  start: readonly [string, string];
  groups: readonly Group[];
  floatingIps: Range;
  loadBalancers: Range;
  /** Object storage: GB at the start, GB added a day (before the trend). */
  objectGb: Range;
  objectGrowthGb: Range;
  /** Egress GB a day, a weekend factor, the day-to-day noise (sd of a log-normal). */
  egress: { gb: Range; weekend: number; noise: number };
  /** Growth (or decline) a month of autoscaled groups, egress and object-storage growth. */
  trend: Range;
  /** Steps: the mean interval (days) drawn in `every`; the probability a step is up; the kinds tried. */
  steps: { every: Range; up: number; kinds: readonly StepKind[] };
  monthly: readonly MonthlyItem[];
  /** Delays per 100 days, the probability a weekend arrives Monday, missing days per 100 days. */
  delays: { days: number; weekends: number; missing: number };
  /** One-offs a year: migrations, support incidents (their amount), egress bursts (× a day's egress). */
  oneOffs: { migrations: number; incidents: number; incident: Range; bursts: number };
}

/** A random stream: sfc32 seeded by FNV-1a of the seed and the stream's name (its own PRNG, by design). */
type Rng = () => number;
function rngOf(seed: number, stream: string): Rng {
  let h = 0x811c9dc5 ^ seed;
  for (const c of `${seed}:${stream}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  let a = h >>> 0;
  let b = (seed * 0x9e3779b9) >>> 0;
  let c = 0xdeadbeef ^ h;
  let d = 1;
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}
const uniform = (r: Rng, [a, b]: Range) => a + (b - a) * r();
const intIn = (r: Rng, [a, b]: Range) => a + Math.floor(r() * (b - a + 1));
const normal = (r: Rng) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
const exponential = (r: Rng, mean: number) => -mean * Math.log(1 - r());
function poisson(r: Rng, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = r(); p > limit && k < 1000; p *= r()) k++;
  return k;
}
const cents = (euros: number) => Math.round(euros * 100);
const pct = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(1)} %`;

/** The size of a step, as a share of the hourly bill: 8–30 %, small steps more common. */
export const STEP_SIZE: Range = [0.08, 0.3];
const drawStepSize = (r: Rng) => STEP_SIZE[0] + (STEP_SIZE[1] - STEP_SIZE[0]) * r() ** 1.4;

/** A drawn step, before it is realised. */
interface Step {
  up: boolean;
  size: number;
  kind: StepKind;
}

interface Live {
  group: Group;
  flavour: number;
  count: number;
  /** Friday's shelving hour and Monday's unshelving hour (UTC). */
  off: number;
  on: number;
}

const flavourIndex = (name: string) => {
  const i = FLAVOURS.findIndex(([n]) => n === name);
  if (i < 0) throw new Error(`foreign4: unknown flavour ${name}`);
  return i;
};

/** generateForeign4 bills one profile with one seed, hour by hour, and tells what happened. */
export function generateForeign4(p: Profile4): ForeignSeries {
  const setup = rngOf(p.seed, "setup");
  const firstDay = intIn(setup, [dayOf(p.start[0]), dayOf(p.start[1])]);
  const last = FOREIGN4_LAST;
  const story: string[] = [];
  const tell = (day: number, what: string) => story.push(`${isoOf(day)}: ${what}`);

  const live: Live[] = p.groups.map((g) => ({
    group: g,
    flavour: flavourIndex(g.flavour),
    count: intIn(setup, g.count),
    off: intIn(setup, [17, 21]),
    on: intIn(setup, [6, 9]),
  }));
  const ips = intIn(setup, p.floatingIps);
  const lbs = intIn(setup, p.loadBalancers);
  let objectGb = uniform(setup, p.objectGb);
  const objectGrowth = uniform(setup, p.objectGrowthGb);
  const egressGb = uniform(setup, p.egress.gb);
  const trend = uniform(setup, p.trend);
  const amounts = p.monthly.map((m) => ("amount" in m ? uniform(setup, m.amount) : 0));
  for (const l of live)
    tell(
      firstDay,
      `group ${l.group.name}: ${l.count} × ${FLAVOURS[l.flavour]![0]}${l.group.idleWeekends ? ", shelved on weekends" : ""}${l.group.autoscale ? ", autoscaled" : ""}`,
    );
  tell(firstDay, `trend ${pct(trend)} a month; ${ips} floating IPs, ${lbs} load balancers`);

  // steps: exponential intervals, each realised at its hour from the state of the day
  const stepRng = rngOf(p.seed, "steps");
  const every = uniform(stepRng, p.steps.every);
  const steps = new Map<number, Step[]>();
  for (
    let t = firstDay + exponential(stepRng, every);
    t < last;
    t += Math.max(2, exponential(stepRng, every))
  ) {
    const day = Math.floor(t);
    const kind = p.steps.kinds[Math.floor(stepRng() * p.steps.kinds.length)]!;
    const step = { up: stepRng() < p.steps.up, size: drawStepSize(stepRng), kind };
    steps.set(day, [...(steps.get(day) ?? []), step]);
  }

  // one-offs: rare events on drawn days
  const oneRng = rngOf(p.seed, "one-offs");
  const years = (last - firstDay + 1) / 365;
  const oneOffs = new Map<number, { kind: "migration" | "incident" | "burst"; amount: number }>();
  for (const [kind, perYear] of [
    ["migration", p.oneOffs.migrations],
    ["incident", p.oneOffs.incidents],
    ["burst", p.oneOffs.bursts],
  ] as const)
    for (let k = poisson(oneRng, perYear * years); k > 0; k--) {
      const day = intIn(oneRng, [firstDay + 1, last]);
      const amount = kind === "incident" ? uniform(oneRng, p.oneOffs.incident) : uniform(oneRng, [3, 12]);
      if (!oneOffs.has(day)) oneOffs.set(day, { kind, amount });
    }

  const noise = rngOf(p.seed, "noise");
  let priceFactor = 1;
  /** The hourly bill with every server running: what a step's size is a share of. */
  const hourly = () =>
    priceFactor *
    (live.reduce(
      (a, l) =>
        a + l.count * (FLAVOURS[l.flavour]![1] + (l.group.volumeGb * STORAGE_GB_MONTH) / HOURS_A_MONTH),
      0,
    ) +
      ips * PRICES.floatingIpHour +
      lbs * PRICES.loadBalancerHour);

  /** realise chooses how a drawn step happens, from the state of its day; `apply` changes it at `hour`. */
  const realise = (day: number, s: Step): { hour: number; apply: () => void } => {
    const rate = hourly();
    const sign = s.up ? 1 : -1;
    const fits = (x: number) => x >= STEP_SIZE[0] - 1e-9 && x <= STEP_SIZE[1] + 1e-9;
    if (s.kind === "servers") {
      const fixed = live.filter((l) => !l.group.autoscale);
      const l = fixed[Math.floor(stepRng() * fixed.length)];
      if (l) {
        const each =
          priceFactor * (FLAVOURS[l.flavour]![1] + (l.group.volumeGb * STORAGE_GB_MONTH) / HOURS_A_MONTH);
        const k = Math.round((s.size * rate) / each);
        if (k >= 1 && fits((k * each) / rate) && (s.up || l.count - k >= 1)) {
          const hour = intIn(stepRng, [9, 17]);
          tell(
            day,
            `step ${pct((sign * k * each) / rate)}: ${k} × ${FLAVOURS[l.flavour]![0]} ${s.up ? "added to" : "removed from"} ${l.group.name} at ${hour}:00`,
          );
          return { hour, apply: () => (l.count += sign * k) };
        }
      }
    }
    if (s.kind !== "price") {
      for (const l of live) {
        const to = l.flavour + sign;
        if (to < 0 || to >= FLAVOURS.length || l.group.autoscale) continue;
        const change = (priceFactor * l.count * (FLAVOURS[to]![1] - FLAVOURS[l.flavour]![1])) / rate;
        if (!fits(Math.abs(change))) continue;
        tell(
          day,
          `step ${pct(change)}: ${l.group.name} resized from ${FLAVOURS[l.flavour]![0]} to ${FLAVOURS[to]![0]} at 23:00`,
        );
        return { hour: 23, apply: () => (l.flavour = to) };
      }
    }
    tell(day, `step ${pct(sign * s.size)}: list price change at 00:00`);
    return { hour: 0, apply: () => (priceFactor *= 1 + sign * s.size) };
  };

  // the bill of each day, in cents, line by line; month totals for a share-of-last-month item
  const billed: number[] = [];
  const monthTotals = new Map<string, number>();
  for (let day = firstDay; day <= last; day++) {
    const months = (day - firstDay) / 30.44;
    const grow = (1 + trend) ** months;
    const weekday = weekdayOf(day);
    const lines: number[] = [];
    const changes = (steps.get(day) ?? []).map((s) => realise(day, s));
    const compute = live.map(() => 0);
    const fixedHourly = { volumes: 0, snapshots: 0, ips: 0, lbs: 0 };
    const dayNoise = Math.exp(0.04 * normal(noise));
    for (let h = 0; h < 24; h++) {
      for (const c of changes) if (c.hour === h) c.apply();
      for (const [i, l] of live.entries()) {
        const shelved =
          l.group.idleWeekends &&
          ((weekday === 5 && h >= l.off) || weekday === 6 || weekday === 0 || (weekday === 1 && h < l.on));
        let n = l.count;
        if (l.group.autoscale)
          n = Math.max(
            1,
            Math.round(
              l.count * grow * dayNoise * (1 + l.group.autoscale * Math.sin(((h - 9) / 24) * 2 * Math.PI)),
            ),
          );
        if (!shelved) compute[i]! += n * FLAVOURS[l.flavour]![1] * priceFactor;
        const gb = l.count * l.group.volumeGb;
        fixedHourly.volumes += (gb * PRICES.volumeGbMonth * priceFactor) / HOURS_A_MONTH;
        fixedHourly.snapshots += (gb * SNAPSHOT_SHARE * PRICES.snapshotGbMonth * priceFactor) / HOURS_A_MONTH;
      }
      fixedHourly.ips += ips * PRICES.floatingIpHour * priceFactor;
      fixedHourly.lbs += lbs * PRICES.loadBalancerHour * priceFactor;
    }
    for (const c of compute) lines.push(cents(c));
    lines.push(
      cents(fixedHourly.volumes),
      cents(fixedHourly.snapshots),
      cents(fixedHourly.ips),
      cents(fixedHourly.lbs),
    );
    objectGb += objectGrowth * grow * (0.5 + noise());
    lines.push(cents((objectGb * PRICES.objectGbMonth * 24) / HOURS_A_MONTH));
    const weekend = weekday === 0 || weekday === 6 ? p.egress.weekend : 1;
    let egress = egressGb * grow * weekend * Math.exp(p.egress.noise * normal(noise));
    const one = oneOffs.get(day);
    if (one?.kind === "burst") {
      tell(day, `one-off: bulk export, ${one.amount.toFixed(1)}× a day's egress`);
      egress *= 1 + one.amount;
    }
    lines.push(cents(egress * PRICES.egressGb));
    if (one?.kind === "incident") {
      tell(day, `one-off: support incident billed ${one.amount.toFixed(2)}`);
      lines.push(cents(one.amount));
    }
    if (one?.kind === "migration") {
      const l = live.reduce((a, b) =>
        b.count * FLAVOURS[b.flavour]![1] > a.count * FLAVOURS[a.flavour]![1] ? b : a,
      );
      tell(day, `one-off: migration of ${l.group.name}, ${l.count} servers run twice 08:00–20:00`);
      lines.push(cents(12 * l.count * FLAVOURS[l.flavour]![1] * priceFactor));
    }
    // items billed monthly, on their day (the month's last day in a shorter month)
    const date = dateOf(day);
    const monthLength = monthLengthOf(day);
    for (const l of live) {
      const lic = l.group.licence;
      if (lic && date === Math.min(lic.day, monthLength)) {
        lines.push(cents(l.count * lic.perServerMonth));
        tell(day, `${lic.what} billed monthly on the ${lic.day}: ${l.count} × ${lic.perServerMonth}`);
      }
    }
    for (const [i, m] of p.monthly.entries()) {
      if (date !== Math.min(m.day, monthLength)) continue;
      let amount = amounts[i]!;
      if ("share" in m) {
        const previous = monthTotals.get(monthKey(day - date)) ?? 0;
        amount = Math.max(m.minimum, (m.share / 100) * (previous / 100));
      }
      lines.push(cents(amount));
      tell(day, `${m.what} billed monthly on the ${m.day}: ${amount.toFixed(2)}`);
    }
    const total = lines.reduce((a, b) => a + b, 0);
    billed.push(total);
    monthTotals.set(monthKey(day), (monthTotals.get(monthKey(day)) ?? 0) + total);
  }

  delay(p, firstDay, billed, tell);
  return { name: p.name, seed: p.seed, firstDay, daily: billed.map((c) => c / 100), story: story.sort() };
}

/**
 * delay moves a day's charges (a zero, then the next day or the next two carry them), a weekend's to Monday,
 * and drops missing days (charges waived). Moves conserve cents; only a missing day loses money.
 */
function delay(
  p: Profile4,
  firstDay: number,
  billed: number[],
  tell: (day: number, what: string) => void,
): void {
  const r = rngOf(p.seed, "delays");
  const n = billed.length;
  const used = new Set<number>();
  const free = (...ks: number[]) => ks.every((k) => k >= 1 && k < n && !used.has(k));
  for (let k = poisson(r, (p.delays.days * n) / 100); k > 0; k--) {
    const i = 1 + Math.floor(r() * (n - 4));
    const split = r() < 0.3;
    if (!free(i, i + 1, i + 2)) continue;
    used
      .add(i)
      .add(i + 1)
      .add(i + 2);
    const moved = billed[i]!;
    billed[i] = 0;
    if (split) {
      const first = Math.round(moved * (0.3 + 0.4 * r()));
      billed[i + 1]! += first;
      billed[i + 2]! += moved - first;
      tell(firstDay + i, `billing delay: the day billed as zero, its charges split over the next two days`);
    } else {
      billed[i + 1]! += moved;
      tell(firstDay + i, `billing delay: the day billed as zero, its charges with the next day`);
    }
  }
  for (let i = 1; i + 2 < n; i++) {
    if (weekdayOf(firstDay + i) !== 6 || r() >= p.delays.weekends || !free(i, i + 1, i + 2)) continue;
    used
      .add(i)
      .add(i + 1)
      .add(i + 2);
    billed[i + 2]! += billed[i]! + billed[i + 1]!;
    billed[i] = 0;
    billed[i + 1] = 0;
    tell(firstDay + i, `billing delay: the weekend billed on Monday`);
  }
  for (let k = poisson(r, (p.delays.missing * n) / 100); k > 0; k--) {
    const i = 1 + Math.floor(r() * (n - 1));
    if (!free(i)) continue;
    used.add(i);
    billed[i] = 0;
    tell(firstDay + i, `missing day: no charges billed (waived)`);
  }
}

const quiet = { migrations: 0, incidents: 0.3, incident: [40, 120] as Range, bursts: 0.5 };

/** The ten profiles, from about 10 to about 50,000 a day. */
export const FOREIGN4_PROFILES: readonly Profile4[] = [
  {
    name: "hobby-vps",
    seed: 1,
    start: ["2025-03-01", "2025-06-30"],
    groups: [{ name: "vps", flavour: "s1.medium", count: [5, 8], volumeGb: 50 }],
    floatingIps: [2, 3],
    loadBalancers: [0, 0],
    objectGb: [100, 300],
    objectGrowthGb: [0.5, 2],
    egress: { gb: [20, 60], weekend: 0.9, noise: 0.3 },
    trend: [-0.01, 0.02],
    steps: { every: [40, 90], up: 0.6, kinds: ["servers", "resize", "servers"] },
    monthly: [
      { what: "backup plan", day: 1, amount: [60, 120] },
      { what: "DNS and domains", day: 15, amount: [8, 15] },
    ],
    delays: { days: 2, weekends: 0.05, missing: 0.5 },
    oneOffs: { migrations: 0, incidents: 0.3, incident: [20, 60], bursts: 0.5 },
  },
  {
    name: "dev-shop",
    seed: 2,
    start: ["2025-09-01", "2025-11-30"],
    groups: [
      { name: "dev", flavour: "m1.large", count: [8, 14], volumeGb: 80, idleWeekends: true },
      { name: "ci", flavour: "c1.2xlarge", count: [3, 5], volumeGb: 40, idleWeekends: true, autoscale: 0.5 },
      { name: "db", flavour: "r1.4xlarge", count: [1, 2], volumeGb: 500 },
    ],
    floatingIps: [4, 8],
    loadBalancers: [1, 1],
    objectGb: [500, 2000],
    objectGrowthGb: [2, 10],
    egress: { gb: [100, 300], weekend: 0.3, noise: 0.25 },
    trend: [0, 0.04],
    steps: { every: [20, 45], up: 0.6, kinds: ["servers", "servers", "resize"] },
    monthly: [{ what: "source hosting licence", day: 1, amount: [300, 500] }],
    delays: { days: 1.5, weekends: 0.3, missing: 0.3 },
    oneOffs: quiet,
  },
  {
    name: "saas-startup",
    seed: 3,
    start: ["2026-01-05", "2026-02-10"],
    groups: [
      { name: "web", flavour: "m1.xlarge", count: [10, 16], volumeGb: 40, autoscale: 0.35 },
      { name: "api", flavour: "c1.2xlarge", count: [14, 20], volumeGb: 60 },
      { name: "db", flavour: "r1.4xlarge", count: [3, 4], volumeGb: 1000 },
    ],
    floatingIps: [6, 10],
    loadBalancers: [2, 4],
    objectGb: [3000, 8000],
    objectGrowthGb: [30, 80],
    egress: { gb: [2000, 4000], weekend: 0.8, noise: 0.15 },
    trend: [0.02, 0.07],
    steps: { every: [15, 35], up: 0.75, kinds: ["servers", "servers", "resize", "price"] },
    monthly: [{ what: "support plan (10 % of last month)", day: 1, share: 10, minimum: 500 }],
    delays: { days: 1, weekends: 0.1, missing: 0.3 },
    oneOffs: { migrations: 0.5, incidents: 0.5, incident: [500, 1500], bursts: 1 },
  },
  {
    name: "agency",
    seed: 4,
    start: ["2026-06-08", "2026-06-30"],
    groups: [
      {
        name: "sites",
        flavour: "m1.large",
        count: [20, 30],
        volumeGb: 40,
        licence: { what: "CMS licence", perServerMonth: 4, day: 15 },
      },
      { name: "staging", flavour: "m1.large", count: [10, 16], volumeGb: 40, idleWeekends: true },
      { name: "db", flavour: "r1.4xlarge", count: [2, 2], volumeGb: 400 },
    ],
    floatingIps: [20, 30],
    loadBalancers: [2, 3],
    objectGb: [1000, 3000],
    objectGrowthGb: [5, 20],
    egress: { gb: [500, 1500], weekend: 0.7, noise: 0.2 },
    trend: [0, 0.03],
    steps: { every: [15, 40], up: 0.55, kinds: ["servers", "resize", "servers"] },
    monthly: [{ what: "managed backup", day: 15, amount: [600, 900] }],
    delays: { days: 3, weekends: 0.35, missing: 0.5 },
    oneOffs: quiet,
  },
  {
    name: "ecommerce",
    seed: 5,
    start: ["2025-01-06", "2025-03-31"],
    groups: [
      { name: "web", flavour: "c1.2xlarge", count: [80, 120], volumeGb: 50, autoscale: 0.3 },
      { name: "app", flavour: "r1.4xlarge", count: [30, 40], volumeGb: 100 },
      {
        name: "db",
        flavour: "r1.4xlarge",
        count: [10, 12],
        volumeGb: 2000,
        licence: { what: "database licence", perServerMonth: 450, day: 1 },
      },
      { name: "cache", flavour: "m1.xlarge", count: [16, 24], volumeGb: 20 },
    ],
    floatingIps: [20, 40],
    loadBalancers: [8, 12],
    objectGb: [40_000, 60_000],
    objectGrowthGb: [200, 400],
    egress: { gb: [30_000, 50_000], weekend: 1.3, noise: 0.12 },
    trend: [0, 0.03],
    steps: { every: [20, 40], up: 0.5, kinds: ["servers", "servers", "resize", "price"] },
    monthly: [{ what: "payment gateway plan", day: 5, amount: [2000, 4000] }],
    delays: { days: 1, weekends: 0.15, missing: 0.2 },
    oneOffs: { migrations: 0.5, incidents: 1, incident: [2000, 8000], bursts: 1 },
  },
  {
    name: "data-team",
    seed: 6,
    start: ["2025-10-01", "2025-12-20"],
    groups: [
      { name: "gpu", flavour: "g1.gpu", count: [40, 60], volumeGb: 500, idleWeekends: true },
      { name: "workers", flavour: "r1.4xlarge", count: [100, 140], volumeGb: 200 },
      { name: "notebooks", flavour: "m1.xlarge", count: [30, 50], volumeGb: 100, idleWeekends: true },
    ],
    floatingIps: [10, 20],
    loadBalancers: [1, 2],
    objectGb: [800_000, 1_200_000],
    objectGrowthGb: [1500, 3000],
    egress: { gb: [5000, 15_000], weekend: 0.4, noise: 0.3 },
    trend: [-0.01, 0.04],
    steps: { every: [12, 30], up: 0.55, kinds: ["servers", "servers", "resize"] },
    monthly: [{ what: "support plan (3 % of last month)", day: 1, share: 3, minimum: 3000 }],
    delays: { days: 1.5, weekends: 0.2, missing: 0.3 },
    oneOffs: { migrations: 1, incidents: 0.5, incident: [3000, 10_000], bursts: 1 },
  },
  {
    name: "enterprise-erp",
    seed: 7,
    start: ["2025-01-01", "2025-02-15"],
    groups: [
      { name: "erp", flavour: "r1.4xlarge", count: [400, 500], volumeGb: 300 },
      {
        name: "windows",
        flavour: "m1.xlarge",
        count: [300, 400],
        volumeGb: 100,
        licence: { what: "Windows Server licence", perServerMonth: 28, day: 1 },
      },
      { name: "app", flavour: "c1.2xlarge", count: [150, 200], volumeGb: 80 },
      {
        name: "db",
        flavour: "r1.4xlarge",
        count: [36, 44],
        volumeGb: 4000,
        licence: { what: "ERP database licence", perServerMonth: 1800, day: 10 },
      },
    ],
    floatingIps: [40, 80],
    loadBalancers: [10, 20],
    objectGb: [200_000, 400_000],
    objectGrowthGb: [300, 800],
    egress: { gb: [20_000, 40_000], weekend: 0.5, noise: 0.15 },
    trend: [-0.01, 0.01],
    steps: { every: [40, 80], up: 0.5, kinds: ["servers", "resize", "price"] },
    monthly: [{ what: "enterprise support", day: 1, amount: [40_000, 60_000] }],
    delays: { days: 0.5, weekends: 0.05, missing: 0.1 },
    oneOffs: { migrations: 1, incidents: 0.5, incident: [10_000, 40_000], bursts: 0.5 },
  },
  {
    name: "media-streaming",
    seed: 8,
    start: ["2025-11-01", "2026-02-28"],
    groups: [
      { name: "transcoders", flavour: "c1.2xlarge", count: [700, 900], volumeGb: 40, autoscale: 0.4 },
      { name: "origin", flavour: "r1.4xlarge", count: [90, 110], volumeGb: 500 },
    ],
    floatingIps: [50, 100],
    loadBalancers: [20, 40],
    objectGb: [2_500_000, 3_500_000],
    objectGrowthGb: [3000, 8000],
    egress: { gb: [1_500_000, 2_000_000], weekend: 1.35, noise: 0.12 },
    trend: [-0.04, -0.01],
    steps: { every: [20, 50], up: 0.35, kinds: ["servers", "price"] },
    monthly: [{ what: "CDN commitment", day: 20, amount: [60_000, 90_000] }],
    delays: { days: 3, weekends: 0.15, missing: 1 },
    oneOffs: { migrations: 0, incidents: 0.5, incident: [5000, 20_000], bursts: 2 },
  },
  {
    name: "platform",
    seed: 9,
    start: ["2025-05-01", "2025-08-31"],
    groups: [
      { name: "nodes", flavour: "c1.2xlarge", count: [3000, 3600], volumeGb: 200 },
      {
        name: "memory",
        flavour: "r1.4xlarge",
        count: [1000, 1200],
        volumeGb: 200,
        licence: { what: "RHEL subscriptions", perServerMonth: 55, day: 20 },
      },
      { name: "gpu", flavour: "g1.gpu", count: [30, 40], volumeGb: 1000 },
    ],
    floatingIps: [200, 400],
    loadBalancers: [150, 250],
    objectGb: [1_000_000, 2_000_000],
    objectGrowthGb: [2000, 6000],
    egress: { gb: [150_000, 250_000], weekend: 0.8, noise: 0.1 },
    trend: [0, 0.03],
    steps: { every: [15, 35], up: 0.5, kinds: ["servers", "servers", "resize", "price"] },
    monthly: [{ what: "support plan (4 % of last month)", day: 1, share: 4, minimum: 40_000 }],
    delays: { days: 1, weekends: 0.1, missing: 0.2 },
    oneOffs: { migrations: 2, incidents: 0.5, incident: [20_000, 80_000], bursts: 1 },
  },
  {
    name: "research-lab",
    seed: 10,
    start: ["2026-07-01", "2026-07-31"],
    groups: [
      { name: "hpc", flavour: "r1.4xlarge", count: [30, 40], volumeGb: 300, idleWeekends: true },
      { name: "gpu", flavour: "g1.gpu", count: [4, 6], volumeGb: 500, idleWeekends: true },
      {
        name: "login",
        flavour: "m1.large",
        count: [4, 6],
        volumeGb: 50,
        licence: { what: "MATLAB seats", perServerMonth: 90, day: 5 },
      },
    ],
    floatingIps: [4, 8],
    loadBalancers: [0, 1],
    objectGb: [200_000, 400_000],
    objectGrowthGb: [200, 800],
    egress: { gb: [2000, 6000], weekend: 0.3, noise: 0.3 },
    trend: [-0.03, 0],
    steps: { every: [15, 35], up: 0.45, kinds: ["servers", "resize", "servers"] },
    monthly: [{ what: "HPC support", day: 28, amount: [3000, 5000] }],
    delays: { days: 2, weekends: 0.2, missing: 2 },
    oneOffs: quiet,
  },
];

/**
 * The first seed of each group of ten series (series `i` of a group is profile `i` with seed `base + i`).
 * {@link FRESH_SPLITS}: the probe and confirm splits.
 */
export const FOREIGN4_SPLITS = {
  tune: [8501, 8601],
  heldout: [9701, 9801],
  ...FRESH_SPLITS,
} as const;

/**
 * foreign4Split is a split's series: every profile with each of the split's seed groups, named `profile/seed`.
 * `heldout` is for reporting only, never chosen on.
 */
export function foreign4Split(split: keyof typeof FOREIGN4_SPLITS): ForeignSeries[] {
  return seriesOfSeeds(FOREIGN4_PROFILES, FOREIGN4_SPLITS[split], generateForeign4);
}
