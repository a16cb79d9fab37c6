/**
 * Billing data for the pack: one fetch per project and product per run (one AnalyzeStack call), with
 * a timeout, shared by every policy. Policies cannot see data sources or read resources (PULUMI-NOTES.md), so the pack
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
 * policyStarts tells the cache that the policy at `order` in the pack starts validating: a new run
 * begins when it does not come after the last one.
 */
export function policyStarts(order: number): void {
  if (order <= lastPolicy) runs.clear();
  lastPolicy = order;
}

/**
 * projectData fetches once per run; errors become a ProjectData the policies report. The days read are
 * those `config` needs (its `trailingDays` and `spikeWindowDays`, at most 366, and the forecast model's
 * history): a later policy of the run that looks further back than the read reads once more, the longer
 * window; any other reuses it.
 */
export function projectData(
  projectId: number,
  product: string | number,
  timeoutSeconds: number,
  config: BudgetConfig = {},
): Promise<ProjectData> {
  const key = `${projectId}:${product}`;
  const now = new Date();
  const from = checkPeriodStart(now, config);
  const cached = runs.get(key);
  if (cached && cached.from <= from) return cached.read;
  const window = { trailingDays: config.trailingDays, spikeWindowDays: config.spikeWindowDays };
  const read = (async (): Promise<ProjectData> => {
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
  return read;
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
  lastPolicy = -1;
}
