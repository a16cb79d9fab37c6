/**
 * Foreign bills, a fifth set (issue 20, session 13): a fifth generator of daily bills, written without reading
 * the forecast model, its corpus, its tuning or the bodies of the other four foreign sets. Only the
 * {@link ForeignSeries} type and `seriesOfSeeds` are shared, so the replays (bench/foreign-tune.ts and
 * bench/check-replay.ts `--set foreign5`) read it like the others.
 *
 * How a bill is made here: **from demand, not from a fleet list.** Each profile has a demand process (users,
 * jobs or traffic, in instance-loads: one instance at 100 % serves one) that moves continuously —
 * - a **geometric random walk** with a drift of its own (growth or decline per year) and a daily volatility;
 * - an **AR(1)** around that level, and **level shifts** of 1–6 % at exponential intervals;
 * - a **weekly** shape (weekend factor), an **intraday** shape in the team's local time (CET/CEST: office
 *   hours, evening traffic, nightly jobs or flat), the **public holidays** of its country (DE, FR, NL, PL);
 * - an **annual season**: retail (a November ramp to Black Friday and Cyber Monday, a January dip), education
 *   (school holidays of its country: demand falls outside term time) or winter (streaming, a cosine);
 * and an **autoscaler** turns the hourly demand into instances: a minimum and a maximum, a scale-up threshold
 * (to the target utilisation at once), a slower scale-down (below a lower threshold for a cooldown, then a
 * share of the instances an hour), **reserved base capacity** billed monthly on the 1st at a discount (from a
 * drawn month on), on-demand instance-hours above it.
 *
 * On top, drawn from distributions per seed, each mechanism from its own random stream (turning one off
 * leaves the others' draws unchanged):
 * - **steps** of 8–30 % up or down at exponential intervals: a release that changes efficiency (load per
 *   request, in business hours), a customer won or lost (at local midnight), a list price change on a date
 *   (at 00:00 UTC, often the 1st; at most once a year) — the told size is the size of the driver; in a bare profile (constant
 *   demand, no reserved capacity) it is the size of the bill's step;
 * - **items billed monthly**: on the 1st most often, on the last business day of the month (its country's
 *   holidays), on a fixed day, and a few **quarterly** (1 January, April, July, October);
 * - **billing delays**: a day billed as zero, its charges arriving with the next day or split over the next
 *   two; a **pipeline outage** of 2–4 days of zeros caught up in one day; **missing days** (never billed);
 * - **idle weekends**: dev environments shelved from Friday 19:00 to Monday 07:00 local time and on public
 *   holidays, their volumes still billed;
 * - a rare **one-off**: a load test (demand ×3–6 for a working afternoon: the autoscaler runs to its max)
 *   or an incident (the autoscaler stuck at its max for 4–30 hours).
 * Every line of a day (on-demand instances, volumes, load balancers and IPs, object storage, egress, dev
 * environment, reserved capacity, each monthly item) is rounded to cents, then summed.
 *
 * Ten profiles ({@link FOREIGN5_PROFILES}), from about 5 to about 80,000 euros a day. Histories from early
 * 2025 (a March 2026 forecast has a long history), two starting in June or July 2026, one of about 45 days;
 * every series ends on {@link FOREIGN5_LAST} (2026-11-30) and tells a sorted story (`YYYY-MM-DD: …`). The
 * replays evaluate only March–November 2026 (bench/foreign.ts `monthsOf`).
 *
 * Splits ({@link FOREIGN5_SPLITS}): series `i` of a group is profile `i` with seed `base + i`.
 * **foreign5-tune** is groups 8701 and 8801 (diagnosis allowed); **foreign5-heldout** is 10101 and 10201,
 * only ever reported, never chosen on. Profiles are not edited to suit the model: add one instead.
 */
import { type ForeignSeries, FRESH_SPLITS, seriesOfSeeds } from "./foreign";

const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** 0 Sunday … 6 Saturday (day 0, 1970-01-01, was a Thursday). */
const weekdayOf = (day: number) => (day + 4) % 7;
const dateOf = (day: number) => new Date(day * DAY_MS).getUTCDate();
const monthOf = (day: number) => new Date(day * DAY_MS).getUTCMonth() + 1;
const yearOf = (day: number) => new Date(day * DAY_MS).getUTCFullYear();
const monthLengthOf = (day: number) => new Date(Date.UTC(yearOf(day), monthOf(day), 0)).getUTCDate();

/** The earliest first day of a series (UTC day index): histories reach back into 2025. */
export const FOREIGN5_FIRST = dayOf("2025-01-01");
/** The last day of every series. */
export const FOREIGN5_LAST = dayOf("2026-11-30");

/** Hours in a billing month: a monthly price is charged per hour as price ÷ 730, a reservation as 730 hours. */
const MONTH_HOURS = 730;

/** Instance flavours of the cloud and their list prices (euros an hour). */
export const FLAVOURS5 = {
  "a1.medium": 0.044,
  "a1.large": 0.088,
  "c1.xlarge": 0.19,
  "c1.4xlarge": 0.76,
  "g1.gpu": 2.1,
} as const;
export type Flavour5 = keyof typeof FLAVOURS5;

/** Other list prices (euros): a volume's GB-month, an object store's GB-month. */
const VOLUME_GB_MONTH = 0.1;
const OBJECT_GB_MONTH = 0.021;

/** A range a seed draws from (uniformly). */
export type Range = readonly [number, number];
export type Country = "DE" | "FR" | "NL" | "PL";
/** An intraday shape of demand in local time. */
export type Shape = "office" | "evening" | "nightly" | "flat";
/** An annual season of demand. */
export type Season = "none" | "retail" | "education" | "winter";
export type StepKind = "release" | "customer" | "price";

/** A profile: what a seed draws from. */
export interface Profile5 {
  name: string;
  seed: number;
  /** First day, drawn between these (`YYYY-MM-DD`). */
  start: readonly [string, string];
  country: Country;
  demand: {
    kind: "users" | "jobs" | "traffic";
    /** Mean instance-loads at the start. */
    level: Range;
    /** Drift of the walk's log per year, and its daily standard deviation. */
    drift: Range;
    vol: Range;
    /** AR(1) around the level: its coefficient and innovation's standard deviation (log). */
    ar: { phi: Range; sd: Range };
    /** Mean days between level shifts (1–6 %). */
    shiftEvery: Range;
    /** Saturday's and Sunday's factor, and a public holiday's. */
    weekend: Range;
    holiday: Range;
    intraday: Shape;
    season: Season;
    /** How deep the season goes (share of demand gained at the peak or lost in the trough). */
    seasonDepth: Range;
    /** Hour-to-hour noise (sd of the log). */
    hourlyNoise: Range;
  };
  scaler: {
    flavour: Flavour5;
    min: number;
    max: number;
    /** Utilisation scaled to; above `up` it scales out at once; below `down` for `cooldown` hours it scales in. */
    target: number;
    up: Range;
    down: Range;
    cooldown: Range;
    /** Share of the instances removed an hour while scaling in. */
    downRate: number;
    /** Reserved instances as a share of the starting need, and their discount; from 0–`reservedAfter` months on. */
    reserved: Range;
    discount: Range;
    reservedAfter: number;
    /** Volume GB attached to each instance. */
    volumeGb: number;
  };
  /** Load balancers and floating IPs, euros an hour. */
  fixedPerHour: Range;
  /** Object storage: GB at the start and GB added a day. */
  objectGb: Range;
  objectGrowth: Range;
  /** Egress, euros per instance-load-hour of demand. */
  egress: Range;
  /** A dev environment shelved on weekends and holidays: instances, flavour, volume GB each. */
  dev?: { count: Range; flavour: Flavour5; volumeGb: number };
  /** Items billed monthly (or quarterly on the 1st of January, April, July, October). */
  monthly: { what: string; amount: Range; on: number | "last business day" | "quarterly" }[];
  /** Mean days between steps, the chance a step goes up, and the kinds drawn from. */
  steps: { every: Range; up: number; kinds: readonly StepKind[] };
  /** Chance a day is billed late; pipeline outages and missing days a year. */
  delays: { perDay: Range; outagesPerYear: Range; missingPerYear: Range };
  /** One-offs a year and their kinds. */
  oneOffs: { perYear: Range; kinds: readonly ("load test" | "incident")[] };
}

// --- a small PRNG of its own: sfc32 seeded through splitmix32, one stream per mechanism ---------------------

/** streamOf is a uniform [0, 1) generator for one seed and one mechanism's name. */
function streamOf(seed: number, name: string): () => number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  const mix = () => {
    h = (h + 0x9e3779b9) >>> 0;
    let z = h;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = mix();
  let b = mix();
  let c = mix();
  let d = mix();
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

/** Draws of one stream: uniform in a range, normal, exponential, an integer, a choice. */
function drawsOf(next: () => number) {
  const within = (r: Range) => r[0] + (r[1] - r[0]) * next();
  return {
    next,
    within,
    normal: () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
    exponential: (mean: number) => -Math.log(1 - next()) * mean,
    integer: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!,
  };
}
type Draws = ReturnType<typeof drawsOf>;

// --- calendar: holidays, local time, seasons ------------------------------------------------------------------

/** Easter Sunday of a year (anonymous Gregorian algorithm), as a UTC day index. */
function easterOf(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

/** Public holidays: fixed dates (`MM-DD`) and days after Easter Sunday. */
const HOLIDAYS: Record<Country, { fixed: string[]; easter: number[] }> = {
  DE: { fixed: ["01-01", "05-01", "10-03", "12-25", "12-26"], easter: [-2, 1, 39, 50] },
  FR: {
    fixed: ["01-01", "05-01", "05-08", "07-14", "08-15", "11-01", "11-11", "12-25"],
    easter: [1, 39, 50],
  },
  NL: { fixed: ["01-01", "04-27", "12-25", "12-26"], easter: [-2, 1, 39, 50] },
  PL: {
    fixed: ["01-01", "01-06", "05-01", "05-03", "08-15", "11-01", "11-11", "12-25", "12-26"],
    easter: [1, 60],
  },
};

/** holidaysOf is the set of a country's public holidays in a year (UTC day indexes). */
export function holidaysOf(country: Country, year: number): Set<number> {
  const out = new Set<number>();
  const { fixed, easter } = HOLIDAYS[country];
  for (const md of fixed) out.add(dayOf(`${year}-${md}`));
  const sunday = easterOf(year);
  for (const k of easter) out.add(sunday + k);
  return out;
}

/** lastBusinessDayOf is the last weekday of a day's month that is not a public holiday of the country. */
export function lastBusinessDayOf(country: Country, day: number): number {
  const holidays = holidaysOf(country, yearOf(day));
  let d = day - dateOf(day) + monthLengthOf(day);
  while (weekdayOf(d) === 0 || weekdayOf(d) === 6 || holidays.has(d)) d--;
  return d;
}

/** The last Sunday of a month (1-based) of a year, as a UTC day index. */
const lastSundayOf = (year: number, month: number) => {
  const last = Date.UTC(year, month, 0) / DAY_MS;
  return last - weekdayOf(last);
};

/** Summer time's first and last UTC hour by year: from the last Sunday of March to that of October, 01:00 UTC. */
const summerTime = new Map<number, readonly [number, number]>();

/** Hours east of UTC in Central European time: +2 in summer time, else +1. */
function cetOffset(utcHour: number): number {
  const year = yearOf(Math.floor(utcHour / 24));
  let span = summerTime.get(year);
  if (!span) {
    span = [lastSundayOf(year, 3) * 24 + 1, lastSundayOf(year, 10) * 24 + 1];
    summerTime.set(year, span);
  }
  return utcHour >= span[0] && utcHour < span[1] ? 2 : 1;
}

/** Intraday shapes by local hour, normalised to a mean of 1. */
const SHAPES: Record<Shape, number[]> = (() => {
  const raw: Record<Shape, number[]> = {
    office: [
      0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.3, 0.6, 1.2, 1.8, 1.8, 1.8, 1.6, 1.8, 1.8, 1.8, 1.7, 1.4, 0.9,
      0.6, 0.6, 0.5, 0.35, 0.3,
    ],
    evening: [
      0.9, 0.6, 0.4, 0.35, 0.35, 0.35, 0.45, 0.7, 0.85, 0.9, 1, 1.05, 1.1, 1, 1, 1.05, 1.1, 1.2, 1.4, 1.8,
      1.95, 1.9, 1.6, 1.2,
    ],
    nightly: [
      2.4, 2.6, 2.6, 2.5, 2.2, 1.6, 1, 0.6, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7,
      0.9, 1.4, 2,
    ],
    flat: Array.from({ length: 24 }, () => 1),
  };
  for (const k of Object.keys(raw) as Shape[]) {
    const mean = raw[k].reduce((a, b) => a + b, 0) / 24;
    raw[k] = raw[k].map((x) => x / mean);
  }
  return raw;
})();

/** School holidays (outside term time) by country: `MM-DD` windows, and the Easter fortnight. */
const SCHOOL: Record<Country, [string, string][]> = {
  DE: [
    ["07-09", "08-19"],
    ["10-20", "10-31"],
    ["12-22", "12-31"],
    ["01-01", "01-05"],
  ],
  FR: [
    ["07-04", "08-31"],
    ["10-18", "11-02"],
    ["12-20", "12-31"],
    ["01-01", "01-04"],
    ["02-14", "03-01"],
  ],
  NL: [
    ["07-11", "08-23"],
    ["10-17", "10-25"],
    ["12-20", "12-31"],
    ["01-01", "01-04"],
    ["02-14", "02-22"],
  ],
  PL: [
    ["06-27", "08-31"],
    ["12-22", "12-31"],
    ["01-01", "01-06"],
    ["01-19", "02-01"],
  ],
};

/** Black Friday: the day after the fourth Thursday of November. */
function blackFridayOf(year: number): number {
  const first = Date.UTC(year, 10, 1) / DAY_MS;
  const thursday = first + ((4 - weekdayOf(first) + 7) % 7) + 21;
  return thursday + 1;
}

/** seasonOf is the annual season's factor on a local day. */
function seasonOf(season: Season, depth: number, country: Country, day: number): number {
  if (season === "none") return 1;
  const md = isoOf(day).slice(5);
  const year = yearOf(day);
  if (season === "winter")
    return 1 + depth * Math.cos((2 * Math.PI * (day - dayOf(`${year}-01-15`))) / 365.25);
  if (season === "education") {
    const easter = easterOf(year);
    const out =
      SCHOOL[country].some(([a, b]) => md >= a && md <= b) || (day >= easter - 8 && day <= easter + 7);
    return out ? 1 - depth : 1;
  }
  // retail: a ramp through November to Black Friday's weekend and Cyber Monday, a December plateau, a January dip
  const bf = blackFridayOf(year);
  if (day >= bf && day <= bf + 3) return 1 + depth * (day === bf + 3 ? 1.3 : 1.6);
  if (monthOf(day) === 11)
    return 1 + (depth * 0.6 * (dateOf(day) - 1)) / Math.max(1, bf - dayOf(`${year}-11-01`));
  if (monthOf(day) === 12) return md >= "12-24" ? 0.8 : 1 + depth * 0.5;
  if (monthOf(day) === 1) return 1 - depth * 0.3;
  if (monthOf(day) === 8) return 1 - depth * 0.15;
  return 1;
}

// --- the generator ------------------------------------------------------------------------------------------

/** A change of a driver from an hour on: demand, load per instance or the list price, ×(1 + size). */
interface Step {
  hour: number;
  kind: StepKind;
  size: number;
}

const pct = (x: number) => `${x >= 0 ? "+" : "−"}${(Math.abs(x) * 100).toFixed(1)} %`;
const money = (x: number) => x.toFixed(2);
const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`;

/** drawSteps draws the steps of a series: exponential intervals, 8–30 %, each kind at its own time of day. */
function drawSteps(p: Profile5, r: Draws, first: number, story: string[]): Step[] {
  const steps: Step[] = [];
  const every = r.within(p.steps.every);
  let day = first + Math.ceil(r.exponential(every));
  let lastPrice = -Infinity;
  while (day < FOREIGN5_LAST) {
    // a list price changes at most once a year: a price step drawn sooner is a customer's instead
    const drawn = r.pick(p.steps.kinds);
    const kind = drawn === "price" && day - lastPrice < 365 ? "customer" : drawn;
    const size = (r.next() < p.steps.up ? 1 : -1) * r.within([0.08, 0.3]);
    let d = day;
    let hour: number;
    let what: string;
    if (kind === "release") {
      while (weekdayOf(d) === 0 || weekdayOf(d) === 6) d++;
      hour = d * 24 + r.integer(8, 14);
      what = `release ${r.integer(2, 9)}.${r.integer(0, 30)} changes the load per request`;
    } else if (kind === "customer") {
      hour = d * 24 - 1;
      what = size > 0 ? "a customer won" : "a customer lost";
    } else {
      if (r.next() < 0.5) d = d - dateOf(d) + 1 + monthLengthOf(d);
      hour = d * 24;
      lastPrice = d;
      what = `list price of ${p.scaler.flavour} changes`;
    }
    if (d > FOREIGN5_LAST) break;
    steps.push({ hour, kind, size });
    story.push(`${isoOf(d)}: step ${pct(size)}: ${what}`);
    day = d + Math.max(3, Math.ceil(r.exponential(every)));
  }
  return steps;
}

/**
 * generateForeign5 is one series: the profile's demand, drawn for its seed, through its autoscaler, billed
 * hour by hour into cent-rounded daily lines, then delayed, caught up or lost by the billing pipeline.
 */
export function generateForeign5(p: Profile5): ForeignSeries {
  const story: string[] = [];
  const stream = (name: string) => drawsOf(streamOf(p.seed, name));
  const shape = stream("shape");
  const first = Math.max(FOREIGN5_FIRST, Math.round(shape.within([dayOf(p.start[0]), dayOf(p.start[1])])));
  const days = FOREIGN5_LAST - first + 1;
  const flavourPrice = FLAVOURS5[p.scaler.flavour];

  // the demand process's parameters
  const level = shape.within(p.demand.level);
  const drift = shape.within(p.demand.drift) / 365;
  const vol = shape.within(p.demand.vol);
  const phi = shape.within(p.demand.ar.phi);
  const arSd = shape.within(p.demand.ar.sd);
  const weekend = shape.within(p.demand.weekend);
  const holiday = shape.within(p.demand.holiday);
  const depth = shape.within(p.demand.seasonDepth);
  const hourlyNoise = shape.within(p.demand.hourlyNoise);
  const up = shape.within(p.scaler.up);
  const down = shape.within(p.scaler.down);
  const cooldown = Math.round(shape.within(p.scaler.cooldown));
  const fixedPerHour = shape.within(p.fixedPerHour);
  const objectGb0 = shape.within(p.objectGb);
  const objectGrowth = shape.within(p.objectGrowth);
  const egress = shape.within(p.egress);
  story.push(
    `${isoOf(first)}: ${p.demand.kind} of ${level.toFixed(1)} instance-loads (${p.country}, ${p.demand.intraday}, season ${p.demand.season}), drift ${pct(drift * 365)} a year, autoscaler ${p.scaler.min}–${p.scaler.max} × ${p.scaler.flavour}`,
  );

  // reserved base capacity, billed monthly on the 1st from a drawn month on
  const reservation = stream("reserved");
  const reservedCount = Math.round(reservation.within(p.scaler.reserved) * (level / p.scaler.target));
  const discount = reservation.within(p.scaler.discount);
  let reservedFrom = first - dateOf(first) + 1 + monthLengthOf(first);
  for (let k = reservation.integer(0, p.scaler.reservedAfter); k > 0; k--)
    reservedFrom += monthLengthOf(reservedFrom);
  if (reservedCount > 0 && reservedFrom <= FOREIGN5_LAST)
    story.push(
      `${isoOf(reservedFrom)}: ${reservedCount} × ${p.scaler.flavour} reserved (−${(discount * 100).toFixed(0)} %), billed monthly on the 1st`,
    );

  // level shifts, steps, one-offs
  const shifts = stream("shifts");
  const shiftAt = new Map<number, number>();
  const shiftEvery = shifts.within(p.demand.shiftEvery);
  for (let d = first + Math.ceil(shifts.exponential(shiftEvery)); d <= FOREIGN5_LAST; ) {
    const size = (shifts.next() < 0.5 ? -1 : 1) * shifts.within([0.01, 0.06]);
    shiftAt.set(d, size);
    story.push(`${isoOf(d)}: demand level shifts ${pct(size)}`);
    d += Math.max(2, Math.ceil(shifts.exponential(shiftEvery)));
  }
  const steps = drawSteps(p, stream("steps"), first, story);
  const oneOff = stream("one-offs");
  const loadTests: { from: number; to: number; factor: number }[] = [];
  const stuck: { from: number; to: number }[] = [];
  const perYear = oneOff.within(p.oneOffs.perYear);
  for (let d = first + Math.ceil(oneOff.exponential(365 / Math.max(perYear, 1e-9))); d <= FOREIGN5_LAST; ) {
    if (oneOff.pick(p.oneOffs.kinds) === "load test") {
      while (weekdayOf(d) === 0 || weekdayOf(d) === 6) d++;
      if (d > FOREIGN5_LAST) break;
      const factor = oneOff.within([3, 6]);
      loadTests.push({ from: d * 24 + 12, to: d * 24 + 18, factor });
      story.push(`${isoOf(d)}: one-off: load test, demand ×${factor.toFixed(1)} for the afternoon`);
    } else {
      const from = d * 24 + oneOff.integer(0, 23);
      const hours = oneOff.integer(4, 30);
      stuck.push({ from, to: from + hours });
      story.push(
        `${isoOf(d)}: one-off: incident, autoscaler stuck at its max of ${p.scaler.max} for ${hours} h`,
      );
    }
    d += Math.max(7, Math.ceil(oneOff.exponential(365 / Math.max(perYear, 1e-9))));
  }

  // the dev environment
  const devDraw = stream("dev");
  const devCount = p.dev ? Math.round(devDraw.within(p.dev.count)) : 0;
  if (p.dev && devCount > 0)
    story.push(
      `${isoOf(first)}: dev environment of ${devCount} × ${p.dev.flavour} shelved on weekends and holidays`,
    );

  // hour by hour: demand, the autoscaler, the lines of each day (euros, rounded to cents per line and day)
  const noise = stream("noise");
  const cents = new Array<number>(days).fill(0);
  const holidayCache = new Map<number, Set<number>>();
  const seasons = new Map<number, number>();
  const isHoliday = (d: number) => {
    const y = yearOf(d);
    if (!holidayCache.has(y)) holidayCache.set(y, holidaysOf(p.country, y));
    return holidayCache.get(y)!.has(d);
  };
  let walk = 0;
  let ar = 0;
  let shift = 0;
  let n = -1;
  let below = 0;
  let demandMult = 1;
  let loadMult = 1;
  let priceMult = 1;
  let nextStep = 0;
  const objectDay0 = first;
  for (let k = 0; k < days; k++) {
    const day = first + k;
    if (k > 0) {
      walk += drift + vol * noise.normal();
      ar = phi * ar + arSd * noise.normal();
    }
    shift += Math.log(1 + (shiftAt.get(day) ?? 0));
    const base = level * Math.exp(walk + ar + shift);
    let onDemand = 0;
    let volumes = 0;
    let traffic = 0;
    let dev = 0;
    let devVolumes = 0;
    for (let h = 0; h < 24; h++) {
      const hour = day * 24 + h;
      while (nextStep < steps.length && steps[nextStep]!.hour <= hour) {
        const s = steps[nextStep++]!;
        if (s.kind === "customer") demandMult *= 1 + s.size;
        else if (s.kind === "release") loadMult *= 1 + s.size;
        else priceMult *= 1 + s.size;
      }
      const local = hour + cetOffset(hour);
      const localDay = Math.floor(local / 24);
      const localHour = local - localDay * 24;
      const wd = weekdayOf(localDay);
      const off = isHoliday(localDay);
      let season = seasons.get(localDay);
      if (season === undefined) {
        season = seasonOf(p.demand.season, depth, p.country, localDay);
        seasons.set(localDay, season);
      }
      let demand =
        base *
        demandMult *
        (wd === 0 || wd === 6 ? weekend : 1) *
        (off ? holiday : 1) *
        season *
        SHAPES[p.demand.intraday][localHour]! *
        Math.exp(hourlyNoise * noise.normal());
      for (const t of loadTests) if (hour >= t.from && hour < t.to) demand *= t.factor;
      const load = demand * loadMult;
      const need = Math.ceil(load / p.scaler.target - 1e-9);
      if (n < 0) n = Math.min(p.scaler.max, Math.max(p.scaler.min, need));
      const utilisation = load / Math.max(n, 1e-9);
      if (stuck.some((s) => hour >= s.from && hour < s.to)) n = p.scaler.max;
      else if (utilisation > up) {
        n = Math.max(n, need);
        below = 0;
      } else if (utilisation < down) {
        below++;
        if (below >= cooldown) n = Math.max(need, n - Math.max(1, Math.ceil(n * p.scaler.downRate)));
      } else below = 0;
      n = Math.min(p.scaler.max, Math.max(p.scaler.min, n));
      const reserved = day >= reservedFrom ? reservedCount : 0;
      onDemand += Math.max(0, n - reserved) * flavourPrice * priceMult;
      volumes += (n * p.scaler.volumeGb * VOLUME_GB_MONTH) / MONTH_HOURS;
      traffic += demand * egress;
      if (p.dev && devCount > 0) {
        const devUp = !(
          (wd === 5 && localHour >= 19) ||
          wd === 6 ||
          wd === 0 ||
          (wd === 1 && localHour < 7) ||
          off
        );
        if (devUp) dev += devCount * FLAVOURS5[p.dev.flavour] * priceMult;
        devVolumes += (devCount * p.dev.volumeGb * VOLUME_GB_MONTH) / MONTH_HOURS;
      }
    }
    const objects = ((objectGb0 + objectGrowth * (day - objectDay0)) * OBJECT_GB_MONTH * 24) / MONTH_HOURS;
    const lines = [onDemand, volumes, traffic, dev, devVolumes, fixedPerHour * 24, objects];
    if (reservedCount > 0 && day >= reservedFrom && dateOf(day) === 1)
      lines.push(reservedCount * flavourPrice * priceMult * MONTH_HOURS * (1 - discount));
    cents[k] = lines.reduce((a, x) => a + Math.round(x * 100), 0);
  }

  // items billed monthly (or quarterly)
  const items = stream("monthly");
  for (const item of p.monthly) {
    const amount = Math.round(items.within(item.amount) * 100);
    let told = false;
    for (let k = 0; k < days; k++) {
      const day = first + k;
      const due =
        item.on === "quarterly"
          ? dateOf(day) === 1 && monthOf(day) % 3 === 1
          : item.on === "last business day"
            ? day === lastBusinessDayOf(p.country, day)
            : dateOf(day) === Math.min(item.on, monthLengthOf(day));
      if (!due) continue;
      cents[k]! += amount;
      if (told) continue;
      told = true;
      const on =
        item.on === "quarterly"
          ? "billed quarterly on the 1st"
          : item.on === "last business day"
            ? "billed monthly on the last business day"
            : `billed monthly on the ${ordinal(item.on)}`;
      story.push(`${isoOf(day)}: ${item.what} ${money(amount / 100)} ${on}`);
    }
  }

  // the billing pipeline: delays, outages and missing days, each on days no other touches
  const billed = bill(cents, first, p, stream("delays"), story);
  story.sort();
  return { name: p.name, seed: p.seed, firstDay: first, daily: billed.map((c) => c / 100), story };
}

/** bill moves or drops whole days' cents: a delay to the next day or two, an outage to its catch-up day. */
function bill(onTime: readonly number[], first: number, p: Profile5, r: Draws, story: string[]): number[] {
  const out = [...onTime];
  const busy = new Uint8Array(onTime.length);
  const free = (from: number, to: number) => {
    if (from < 2 || to > onTime.length - 2) return false;
    for (let k = from - 1; k <= to + 1; k++) if (busy[k]) return false;
    return true;
  };
  const mark = (from: number, to: number) => busy.fill(1, from, to + 1);
  const years = onTime.length / 365;
  const outages = Math.round(r.within(p.delays.outagesPerYear) * years);
  for (let i = 0; i < outages; i++) {
    const k = r.integer(2, onTime.length - 6);
    const length = r.integer(2, 4);
    if (!free(k, k + length)) continue;
    mark(k, k + length);
    for (let j = k; j < k + length; j++) {
      out[k + length]! += out[j]!;
      out[j] = 0;
    }
    story.push(
      `${isoOf(first + k)}: billing pipeline outage of ${length} days, caught up on ${isoOf(first + k + length)}`,
    );
  }
  const missing = Math.round(r.within(p.delays.missingPerYear) * years);
  for (let i = 0; i < missing; i++) {
    const k = r.integer(2, onTime.length - 3);
    if (!free(k, k)) continue;
    mark(k, k);
    out[k] = 0;
    story.push(`${isoOf(first + k)}: missing day: never billed`);
  }
  const perDay = r.within(p.delays.perDay);
  for (let k = 2; k < onTime.length - 3; k++) {
    if (r.next() >= perDay) continue;
    const split = r.next() < 0.35;
    if (!free(k, k + (split ? 2 : 1))) continue;
    mark(k, k + (split ? 2 : 1));
    const c = out[k]!;
    out[k] = 0;
    if (split) {
      const half = Math.round(c / 2);
      out[k + 1]! += half;
      out[k + 2]! += c - half;
      story.push(`${isoOf(first + k)}: billing delay: the day's charges split over the next two days`);
    } else {
      out[k + 1]! += c;
      story.push(`${isoOf(first + k)}: billing delay: the day's charges with the next day`);
    }
  }
  return out;
}

/** What every profile shares unless it says otherwise: a modest scaler, no dev environment, rare events. */
const scaler = (flavour: Flavour5, min: number, max: number, reserved: Range): Profile5["scaler"] => ({
  flavour,
  min,
  max,
  target: 0.6,
  up: [0.68, 0.8],
  down: [0.3, 0.45],
  cooldown: [2, 6],
  downRate: 0.1,
  reserved,
  discount: [0.28, 0.42],
  reservedAfter: 4,
  volumeGb: 40,
});

/** The ten profiles, with their first seeds (8701–8710, foreign5-tune; see the file's head for the splits). */
export const FOREIGN5_PROFILES: readonly Profile5[] = [
  {
    name: "hobby-api",
    seed: 8701,
    start: ["2025-01-06", "2025-02-20"],
    country: "DE",
    demand: {
      kind: "traffic",
      level: [0.9, 1.4],
      drift: [-0.1, 0.3],
      vol: [0.005, 0.012],
      ar: { phi: [0.5, 0.8], sd: [0.04, 0.08] },
      shiftEvery: [60, 120],
      weekend: [0.9, 1.15],
      holiday: [1, 1.1],
      intraday: "evening",
      season: "none",
      seasonDepth: [0, 0],
      hourlyNoise: [0.05, 0.1],
    },
    scaler: { ...scaler("a1.large", 1, 4, [0, 0]), volumeGb: 20 },
    fixedPerHour: [0.004, 0.006],
    objectGb: [5, 20],
    objectGrowth: [0, 0.2],
    egress: [0.003, 0.006],
    monthly: [{ what: "backup plan", amount: [2, 4], on: 1 }],
    steps: { every: [90, 200], up: 0.55, kinds: ["release", "customer", "price"] },
    delays: { perDay: [0.005, 0.015], outagesPerYear: [0, 1], missingPerYear: [0, 1] },
    oneOffs: { perYear: [0.5, 1.5], kinds: ["load test", "incident"] },
  },
  {
    name: "school-portal",
    seed: 8702,
    start: ["2025-03-01", "2025-05-01"],
    country: "FR",
    demand: {
      kind: "users",
      level: [12, 16],
      drift: [0, 0.25],
      vol: [0.004, 0.01],
      ar: { phi: [0.6, 0.85], sd: [0.02, 0.05] },
      shiftEvery: [60, 150],
      weekend: [0.3, 0.5],
      holiday: [0.3, 0.5],
      intraday: "office",
      season: "education",
      seasonDepth: [0.55, 0.75],
      hourlyNoise: [0.03, 0.06],
    },
    scaler: scaler("c1.xlarge", 2, 80, [0.15, 0.35]),
    fixedPerHour: [0.1, 0.2],
    objectGb: [200, 600],
    objectGrowth: [0.5, 2],
    egress: [0.002, 0.004],
    monthly: [
      { what: "LMS licence", amount: [450, 700], on: 1 },
      { what: "support contract", amount: [200, 300], on: "last business day" },
    ],
    steps: { every: [60, 130], up: 0.6, kinds: ["release", "customer", "price"] },
    delays: { perDay: [0.01, 0.025], outagesPerYear: [0.5, 2], missingPerYear: [0, 1.5] },
    oneOffs: { perYear: [0.5, 1.5], kinds: ["load test", "incident"] },
  },
  {
    name: "webshop",
    seed: 8703,
    start: ["2025-01-01", "2025-02-01"],
    country: "NL",
    demand: {
      kind: "traffic",
      level: [90, 130],
      drift: [0.05, 0.35],
      vol: [0.005, 0.012],
      ar: { phi: [0.6, 0.9], sd: [0.03, 0.06] },
      shiftEvery: [50, 100],
      weekend: [1.05, 1.25],
      holiday: [0.8, 1.1],
      intraday: "evening",
      season: "retail",
      seasonDepth: [0.35, 0.7],
      hourlyNoise: [0.03, 0.07],
    },
    scaler: scaler("c1.xlarge", 20, 900, [0.3, 0.5]),
    fixedPerHour: [0.4, 0.7],
    objectGb: [2000, 4000],
    objectGrowth: [5, 15],
    egress: [0.004, 0.008],
    dev: { count: [3, 6], flavour: "a1.large", volumeGb: 60 },
    monthly: [
      { what: "CDN plan", amount: [1200, 1800], on: 1 },
      { what: "payment gateway", amount: [2500, 3500], on: "quarterly" },
    ],
    steps: { every: [45, 90], up: 0.55, kinds: ["release", "customer", "price"] },
    delays: { perDay: [0.01, 0.03], outagesPerYear: [0.5, 2], missingPerYear: [0, 1] },
    oneOffs: { perYear: [1, 2], kinds: ["load test", "incident"] },
  },
  {
    name: "saas-crm",
    seed: 8704,
    start: ["2025-05-15", "2025-07-01"],
    country: "DE",
    demand: {
      kind: "users",
      level: [150, 200],
      drift: [0.1, 0.4],
      vol: [0.004, 0.009],
      ar: { phi: [0.6, 0.85], sd: [0.02, 0.04] },
      shiftEvery: [40, 90],
      weekend: [0.15, 0.3],
      holiday: [0.2, 0.35],
      intraday: "office",
      season: "none",
      seasonDepth: [0, 0],
      hourlyNoise: [0.02, 0.05],
    },
    scaler: scaler("c1.xlarge", 40, 2000, [0.3, 0.5]),
    fixedPerHour: [1.5, 2.5],
    objectGb: [10_000, 20_000],
    objectGrowth: [20, 60],
    egress: [0.002, 0.004],
    dev: { count: [15, 25], flavour: "c1.xlarge", volumeGb: 100 },
    monthly: [
      { what: "licences", amount: [10_000, 14_000], on: 1 },
      { what: "support contract", amount: [3000, 5000], on: "last business day" },
      { what: "security audit", amount: [7000, 11_000], on: "quarterly" },
    ],
    steps: { every: [30, 70], up: 0.6, kinds: ["release", "customer", "customer", "price"] },
    delays: { perDay: [0.01, 0.03], outagesPerYear: [1, 3], missingPerYear: [0, 1] },
    oneOffs: { perYear: [0.5, 1.5], kinds: ["load test", "incident"] },
  },
  {
    name: "ci-runners",
    seed: 8705,
    start: ["2025-08-15", "2025-10-01"],
    country: "PL",
    demand: {
      kind: "jobs",
      level: [45, 70],
      drift: [-0.2, 0.3],
      vol: [0.008, 0.016],
      ar: { phi: [0.3, 0.7], sd: [0.06, 0.12] },
      shiftEvery: [30, 80],
      weekend: [0.05, 0.15],
      holiday: [0.05, 0.15],
      intraday: "office",
      season: "none",
      seasonDepth: [0, 0],
      hourlyNoise: [0.1, 0.2],
    },
    scaler: { ...scaler("c1.xlarge", 2, 600, [0, 0.1]), cooldown: [1, 2], downRate: 0.25 },
    fixedPerHour: [0.05, 0.1],
    objectGb: [500, 2000],
    objectGrowth: [2, 10],
    egress: [0.0005, 0.001],
    monthly: [{ what: "runner licences", amount: [700, 1100], on: 5 }],
    steps: { every: [40, 80], up: 0.5, kinds: ["release", "customer", "price"] },
    delays: { perDay: [0.015, 0.035], outagesPerYear: [1, 3], missingPerYear: [0.5, 2] },
    oneOffs: { perYear: [1, 3], kinds: ["load test", "incident"] },
  },
  {
    name: "media-streaming",
    seed: 8706,
    start: ["2025-01-01", "2025-01-20"],
    country: "FR",
    demand: {
      kind: "traffic",
      level: [250, 330],
      drift: [0, 0.3],
      vol: [0.004, 0.01],
      ar: { phi: [0.6, 0.9], sd: [0.02, 0.05] },
      shiftEvery: [50, 100],
      weekend: [1.1, 1.3],
      holiday: [1.1, 1.3],
      intraday: "evening",
      season: "winter",
      seasonDepth: [0.08, 0.15],
      hourlyNoise: [0.02, 0.04],
    },
    scaler: scaler("c1.4xlarge", 150, 3000, [0.3, 0.5]),
    fixedPerHour: [8, 12],
    objectGb: [200_000, 400_000],
    objectGrowth: [300, 800],
    egress: [0.05, 0.09],
    monthly: [
      { what: "CDN commitment", amount: [50_000, 70_000], on: 1 },
      { what: "content licence", amount: [80_000, 100_000], on: "quarterly" },
    ],
    steps: { every: [40, 90], up: 0.6, kinds: ["release", "customer", "price"] },
    delays: { perDay: [0.01, 0.02], outagesPerYear: [0.5, 2], missingPerYear: [0, 1] },
    oneOffs: { perYear: [0.5, 1.5], kinds: ["load test", "incident"] },
  },
  {
    name: "ml-batch",
    seed: 8707,
    start: ["2026-06-01", "2026-06-30"],
    country: "DE",
    demand: {
      kind: "jobs",
      level: [35, 50],
      drift: [0, 0.6],
      vol: [0.01, 0.02],
      ar: { phi: [0.4, 0.8], sd: [0.05, 0.1] },
      shiftEvery: [20, 50],
      weekend: [0.6, 1],
      holiday: [0.7, 1],
      intraday: "nightly",
      season: "none",
      seasonDepth: [0, 0],
      hourlyNoise: [0.05, 0.12],
    },
    scaler: { ...scaler("g1.gpu", 0, 300, [0, 0.2]), reservedAfter: 2, volumeGb: 200 },
    fixedPerHour: [0.2, 0.4],
    objectGb: [50_000, 100_000],
    objectGrowth: [200, 600],
    egress: [0.001, 0.002],
    monthly: [{ what: "dataset subscription", amount: [600, 1000], on: 1 }],
    steps: { every: [25, 50], up: 0.55, kinds: ["release", "customer", "price"] },
    delays: { perDay: [0.01, 0.03], outagesPerYear: [1, 3], missingPerYear: [0, 1] },
    oneOffs: { perYear: [1, 3], kinds: ["incident"] },
  },
  {
    name: "game-backend",
    seed: 8708,
    start: ["2026-07-01", "2026-07-31"],
    country: "PL",
    demand: {
      kind: "users",
      level: [150, 220],
      drift: [-0.4, 0.2],
      vol: [0.01, 0.02],
      ar: { phi: [0.5, 0.85], sd: [0.03, 0.07] },
      shiftEvery: [20, 40],
      weekend: [1.2, 1.5],
      holiday: [1.2, 1.4],
      intraday: "evening",
      season: "none",
      seasonDepth: [0, 0],
      hourlyNoise: [0.03, 0.06],
    },
    scaler: { ...scaler("c1.xlarge", 20, 1500, [0.2, 0.4]), reservedAfter: 2 },
    fixedPerHour: [1, 2],
    objectGb: [1000, 3000],
    objectGrowth: [5, 20],
    egress: [0.003, 0.006],
    monthly: [{ what: "anti-cheat licence", amount: [2000, 3000], on: "last business day" }],
    steps: { every: [20, 45], up: 0.45, kinds: ["release", "customer", "price"] },
    delays: { perDay: [0.01, 0.03], outagesPerYear: [0.5, 2], missingPerYear: [0, 1] },
    oneOffs: { perYear: [1, 3], kinds: ["load test", "incident"] },
  },
  {
    name: "edu-lms",
    seed: 8709,
    start: ["2026-10-15", "2026-10-18"],
    country: "NL",
    demand: {
      kind: "users",
      level: [20, 30],
      drift: [0, 0.3],
      vol: [0.005, 0.012],
      ar: { phi: [0.5, 0.8], sd: [0.03, 0.06] },
      shiftEvery: [20, 40],
      weekend: [0.3, 0.5],
      holiday: [0.3, 0.5],
      intraday: "office",
      season: "education",
      seasonDepth: [0.5, 0.7],
      hourlyNoise: [0.03, 0.06],
    },
    scaler: { ...scaler("c1.xlarge", 4, 200, [0, 0]), reservedAfter: 0 },
    fixedPerHour: [0.2, 0.3],
    objectGb: [300, 800],
    objectGrowth: [1, 4],
    egress: [0.002, 0.004],
    monthly: [{ what: "LMS licence", amount: [900, 1500], on: 1 }],
    steps: { every: [15, 30], up: 0.6, kinds: ["release", "customer", "price"] },
    delays: { perDay: [0.015, 0.035], outagesPerYear: [1, 3], missingPerYear: [0, 2] },
    oneOffs: { perYear: [1, 3], kinds: ["load test", "incident"] },
  },
  {
    name: "marketplace",
    seed: 8710,
    start: ["2025-01-01", "2025-01-10"],
    country: "DE",
    demand: {
      kind: "traffic",
      level: [1800, 2300],
      drift: [0.05, 0.3],
      vol: [0.003, 0.008],
      ar: { phi: [0.7, 0.9], sd: [0.015, 0.035] },
      shiftEvery: [40, 90],
      weekend: [0.95, 1.15],
      holiday: [0.9, 1.1],
      intraday: "evening",
      season: "retail",
      seasonDepth: [0.3, 0.6],
      hourlyNoise: [0.01, 0.03],
    },
    scaler: { ...scaler("c1.4xlarge", 800, 12_000, [0.4, 0.6]), discount: [0.35, 0.45] },
    fixedPerHour: [40, 60],
    objectGb: [1_000_000, 2_000_000],
    objectGrowth: [1000, 4000],
    egress: [0.03, 0.05],
    dev: { count: [40, 80], flavour: "c1.4xlarge", volumeGb: 200 },
    monthly: [
      { what: "licences", amount: [70_000, 90_000], on: 1 },
      { what: "enterprise support", amount: [120_000, 180_000], on: "last business day" },
      { what: "DDoS protection", amount: [200_000, 300_000], on: "quarterly" },
    ],
    steps: { every: [35, 80], up: 0.55, kinds: ["release", "customer", "price"] },
    delays: { perDay: [0.005, 0.02], outagesPerYear: [0.5, 1.5], missingPerYear: [0, 0.5] },
    oneOffs: { perYear: [0.5, 1.5], kinds: ["load test", "incident"] },
  },
];

/**
 * The first seed of each group of ten series (series `i` of a group is profile `i` with seed `base + i`).
 * {@link FRESH_SPLITS}: the probe and confirm splits.
 */
export const FOREIGN5_SPLITS = {
  tune: [8701, 8801],
  heldout: [10101, 10201],
  ...FRESH_SPLITS,
} as const;

/** foreign5Split is a split's series (`profile/seed`); `heldout` is for reporting only, never chosen on. */
export function foreign5Split(split: keyof typeof FOREIGN5_SPLITS): ForeignSeries[] {
  return seriesOfSeeds(FOREIGN5_PROFILES, FOREIGN5_SPLITS[split], generateForeign5);
}
