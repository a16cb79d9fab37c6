/**
 * `node dist/bench/foreign-tune.js` (issue 20): the in-process replay (bench/evaluate.ts, the same p50 as the
 * CLI) of the foreign bills (bench/foreign.ts) and of the corpus tune split, for tuning the forecast's
 * intervals. Prints foreign-tune per series and pooled, and the corpus tune split pooled. `--heldout` prints
 * foreign-heldout instead: a report-only figure, read once at the end, never chosen on.
 *
 * `--days all` replays every day from the 2nd to the month's end ({@link EVERY_DAY}) instead of days 3–25.
 * `--set foreign2` replays the second foreign set (bench/foreign2.ts: other mechanisms of real bills) instead
 * of the first, `--set foreign3` the third (bench/foreign3.ts: the four mechanisms, in a team's time
 * zone), `--set foreign4` the fourth (bench/foreign4.ts: a priced catalogue and drawn events, histories from
 * 2025; only March–November 2026 is scored), `--set foreign5` the fifth (bench/foreign5.ts: bills made from
 * demand through an autoscaler, histories from 2025); `--heldout` then chooses the set's held-out split, `--probe`
 * its probe split (five more seed groups of the same profiles, for diagnosing a mechanism the tune split shows
 * once or twice; tuning allowed, never reported), `--confirm` its confirm split (five more: a change chosen on the
 * probe is confirmed there, never tuned on).
 *
 *   node dist/bench/foreign-tune.js [--set foreign|foreign2|foreign3|foreign4|foreign5] [--heldout|--probe|--confirm] [--corpus 135] [--detail NAME] [--days all]
 */
import { type CorpusSeries, corpus } from "./corpus";
import {
  AS_OF_DAYS,
  EVERY_DAY,
  type MonthSample,
  replay,
  replaySeries,
  seriesCoverageMiss,
  seriesMissPct,
  summarizeMonth,
} from "./evaluate";
import { type ForeignSeries, foreignSplit, monthsOf } from "./foreign";
import { foreign2Split } from "./foreign2";
import { foreign3Split } from "./foreign3";
import { foreign4Split } from "./foreign4";
import { foreign5Split } from "./foreign5";

/** The foreign sets `--set` chooses from, each with its tune and held-out splits. */
const SETS = {
  foreign: foreignSplit,
  foreign2: foreign2Split,
  foreign3: foreign3Split,
  foreign4: foreign4Split,
  foreign5: foreign5Split,
} as const;

const out = (line = "") => process.stdout.write(`${line}\n`);
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "—");
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "—");

/** asCorpus gives a foreign series the corpus's shape, every month of it evaluated. */
export function asCorpus(s: ForeignSeries): CorpusSeries {
  return {
    seed: s.seed,
    family: s.name as CorpusSeries["family"],
    firstDay: s.firstDay,
    amounts: s.daily,
    months: monthsOf(s),
    params: {},
  };
}

function row(label: string, xs: readonly MonthSample[]): string {
  const m = summarizeMonth(xs);
  return `${label.padEnd(24)} ${String(m.n).padStart(5)} ${f2(m.medianAbsErrorPct.model).padStart(6)} ${f2(m.ratio["run-rate"]).padStart(6)} ${f2(m.ratio["trailing-mean"]).padStart(6)} ${f2(m.biasPct).padStart(6)} ${f1(m.coverageP80Pct).padStart(6)} ${f1(m.coverageP90Pct).padStart(6)}`;
}

/** coverageLine prints the per-series coverage misses: the shares of series with p80 < 72 or > 92 %, p90 < 82 %. */
function coverageLine(xs: readonly MonthSample[]): string {
  const c = seriesCoverageMiss(xs);
  return `series coverage: p80 < 72 % ${f1(c.p80Low)} %, p80 > 92 % ${f1(c.p80High)} %, p90 < 82 % ${f1(c.p90Low)} %`;
}

function main(argv: string[]): void {
  const heldout = argv.includes("--heldout");
  const at = argv.indexOf("--corpus");
  const corpusCount = at >= 0 ? Number(argv[at + 1]) : 135;
  const detail = argv.includes("--detail") ? argv[argv.indexOf("--detail") + 1] : undefined;
  const days = argv[argv.indexOf("--days") + 1] === "all" && argv.includes("--days") ? EVERY_DAY : AS_OF_DAYS;
  const split = heldout
    ? "heldout"
    : argv.includes("--probe")
      ? "probe"
      : argv.includes("--confirm")
        ? "confirm"
        : "tune";
  const setName = argv.includes("--set") ? argv[argv.indexOf("--set") + 1] : "foreign";
  if (setName === undefined || !Object.hasOwn(SETS, setName)) {
    const what = setName === undefined ? "no set named" : `unknown set ${JSON.stringify(setName)}`;
    process.stderr.write(`--set: ${what}; use foreign, foreign2, foreign3, foreign4 or foreign5\n`);
    process.exitCode = 2;
    return;
  }
  out(
    `${setName}-${split} (${heldout ? "REPORT ONLY: never tune on it" : split === "probe" ? "fresh seeds: tuning allowed, never reported" : split === "confirm" ? "fresh seeds: confirm only, never tune on it, never reported" : "tuning allowed"}), as-of days ${days === EVERY_DAY ? "2 to the month's end" : "3–25, every other"}`,
  );
  out(
    `${"series".padEnd(24)} ${"n".padStart(5)} ${"err%".padStart(6)} ${"×r-r".padStart(6)} ${"×trl".padStart(6)} ${"bias".padStart(6)} ${"≤p80".padStart(6)} ${"≤p90".padStart(6)}`,
  );
  const all: MonthSample[] = [];
  let misses = 0;
  let seriesCount = 0;
  for (const s of SETS[setName as keyof typeof SETS](split)) {
    const { month } = replaySeries(asCorpus(s), days);
    all.push(...month);
    const m = summarizeMonth(month);
    const miss = m.ratio["run-rate"] > 0.8 || m.ratio["trailing-mean"] > 0.85;
    seriesCount++;
    if (miss) misses++;
    const c = seriesCoverageMiss(month);
    const cov = c.p80Low > 0 ? " p80<72" : c.p80High > 0 ? " p80>92" : "";
    out(`${row(s.name, month)}${miss ? "  MISS" : ""}${cov}${c.p90Low > 0 ? " p90<82" : ""}`);
    if (detail && s.name.startsWith(detail))
      for (const x of month)
        out(
          `   day ${x.day} model ${f1(x.error.model * 100)} rr ${f1(x.error["run-rate"] * 100)} trl ${f1(x.error["trailing-mean"] * 100)} ${x.under80 ? "" : ">p80"} ${x.under90 ? "" : ">p90"}`,
        );
  }
  out(row("POOLED", all));
  out(`series missing a per-series bound: ${misses}/${seriesCount}`);
  out(coverageLine(all));
  if (corpusCount > 0) {
    const { month } = replay(corpus("tune", corpusCount), days);
    out(row(`corpus tune (${corpusCount})`, month));
    out(
      `corpus tune miss share (flat, short left out): ${f1(seriesMissPct(month.filter((x) => x.family !== "flat" && x.family !== "short-history")))} %`,
    );
    out(coverageLine(month));
  }
}

if (require.main === module) main(process.argv.slice(2));
