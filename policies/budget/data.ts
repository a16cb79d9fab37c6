/**
 * Billing data for the pack: one fetch per project and product per run (one AnalyzeStack call), with
 * a timeout, shared by every policy, each of which takes the days it needs. Policies cannot see data sources or read resources (PULUMI-NOTES.md), so the pack
 * reads billing itself, with `COSTGATE_BILLING_URL` and `COSTGATE_BILLING_TOKEN` from the environment.
 */
import type { ProjectBalance, ProjectConsumption } from "costgate/billing";
import { resolveBillingSettings } from "costgate/billing";
import { type BudgetConfig, checkPeriodStart, fetchProjectData } from "costgate/budget";

/** Data of one project, or why it could not be read; `now` is when it was read. */
export type ProjectData =
  | { ok: true; balance: ProjectBalance; consumption: ProjectConsumption; now: Date }
  | { ok: false; error: string };

/**
 * The reads of the current run. The SDK runs a pack's stack policies one after the other, in the
 * pack's order, within one AnalyzeStack call; a policy that comes at or before the last one that ran
 * therefore starts a new run ({@link policyStarts}), and the reads of the last run are forgotten.
 */
const runs = new Map<string, { from: string; read: Promise<ProjectData> }>();
let lastPolicy = -1;

/**
 * What the policies of the current run worked out from their config, keyed by the config's JSON text
 * (each policy has its own config, so two keys differ whenever the settings do): the rate card parsed
 * and its prices, the projects and their thresholds. Forgotten with the run's reads.
 */
const memo = new Map<string, unknown>();

/**
 * policyStarts tells the cache that the policy at `order` in the pack starts validating: a new run
 * begins when it does not come after the last one.
 */
export function policyStarts(order: number): void {
  if (order <= lastPolicy) {
    runs.clear();
    memo.clear();
  }
  lastPolicy = order;
}

/**
 * perRun returns what `make` gives for `key` in the current run, calling it once per run and key. A
 * `make` that throws is not remembered (each policy then reports its own error). `key` undefined (a
 * config that has no JSON text) calls `make` every time.
 */
export function perRun<T>(key: string | undefined, make: () => T): T {
  if (key === undefined) return make();
  if (memo.has(key)) return memo.get(key) as T;
  const value = make();
  memo.set(key, value);
  return value;
}

/** jsonKey is the JSON text of `parts`, a key for {@link perRun}; undefined when it has none. */
export function jsonKey(...parts: unknown[]): string | undefined {
  try {
    return JSON.stringify(parts);
  } catch {
    return undefined;
  }
}

/**
 * readWindow is what the run reads for a project: the policy's own window, stretched to `historyDays`
 * (the longest window of any enabled policy, which `costgate policy-config` writes into each: a policy
 * sees only its own config, and the SDK runs them one after the other).
 */
function readWindow(config: BudgetConfig, historyDays: number | undefined): BudgetConfig {
  const window: BudgetConfig = { trailingDays: config.trailingDays, spikeWindowDays: config.spikeWindowDays };
  if (historyDays !== undefined) window.trailingDays = Math.max(config.trailingDays ?? 0, historyDays);
  return window;
}

/**
 * projectData fetches once per run; errors become a ProjectData the policies report. The run reads the
 * days the longest window needs (`historyDays`, else this policy's `trailingDays` and `spikeWindowDays`,
 * and the forecast model's history), and each policy gets the days its own config would have read, so a
 * policy judges the same data whichever policy read first. A policy that looks further back than the
 * run's read (a config `costgate policy-config` did not write) reads once more, the longer window.
 */
export async function projectData(
  projectId: number,
  product: string | number,
  timeoutSeconds: number,
  config: BudgetConfig = {},
  historyDays?: number,
): Promise<ProjectData> {
  const key = `${projectId}:${product}`;
  const now = new Date();
  const window = readWindow(config, historyDays);
  const from = checkPeriodStart(now, window);
  const cached = runs.get(key);
  let read: Promise<ProjectData>;
  if (cached && cached.from <= from) read = cached.read;
  else {
    read = (async (): Promise<ProjectData> => {
      try {
        const s = resolveBillingSettings({
          timeouts: { totalMs: timeoutSeconds * 1000, headersMs: timeoutSeconds * 1000 },
        });
        const data = await fetchProjectData(
          { baseUrl: s.baseUrl, token: s.token, transport: s.transport },
          { projectId, product, now, config: window },
        );
        return { ok: true, ...data, now };
      } catch (e) {
        return { ok: false, error: e instanceof Error ? e.message : String(e) };
      }
    })();
    runs.set(key, { from, read });
  }
  return ownDays(await read, config);
}

/** ownDays is `data` cut to the days `config` alone would have read at the time of the read. */
function ownDays(data: ProjectData, config: BudgetConfig): ProjectData {
  if (!data.ok) return data;
  const from = checkPeriodStart(data.now, config);
  const items = data.consumption.items;
  if (items.length === 0 || (items[0]?.day ?? "") >= from) return data;
  return { ...data, consumption: { ...data.consumption, items: items.filter((d) => d.day >= from) } };
}

/** failures lists the projects whose billing could not be read in this run. */
export async function failures(): Promise<{ key: string; error: string }[]> {
  const out: { key: string; error: string }[] = [];
  for (const [key, { read }] of runs) {
    const d = await read;
    if (!d.ok) out.push({ key, error: d.error });
  }
  return out;
}

/** @internal forgets fetched data (tests run several "runs" in one process). */
export function resetRun(): void {
  runs.clear();
  memo.clear();
  lastPolicy = -1;
}
