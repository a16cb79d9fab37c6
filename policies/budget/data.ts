/**
 * Billing data for the pack: one fetch per project and product per run, with a timeout, shared by
 * every policy. Policies cannot see data sources or read resources (PULUMI-NOTES.md), so the pack
 * reads billing itself, with `COSTGATE_BILLING_URL` and `COSTGATE_BILLING_TOKEN` from the environment.
 */
import type { ProjectBalance, ProjectConsumption } from "costgate/billing";
import { resolveBillingSettings } from "costgate/billing";
import { fetchProjectData } from "costgate/budget";

/** Data of one project, or why it could not be read; `now` is when it was read. */
export type ProjectData =
  | { ok: true; balance: ProjectBalance; consumption: ProjectConsumption; now: Date }
  | { ok: false; error: string };

interface Entry {
  promise: Promise<ProjectData>;
  settledAt?: number;
}

/**
 * How long a read serves later policies. A preview runs every policy within one AnalyzeStack call,
 * well inside this; a process that analyzes again later (a long-lived analyzer, a test) reads anew.
 */
const REUSE_MS = 10_000;

const runs = new Map<string, Entry>();

function fresh(e: Entry): boolean {
  return e.settledAt === undefined || Date.now() - e.settledAt < REUSE_MS;
}

/** projectData fetches once per run; errors become a ProjectData the policies report. */
export function projectData(
  projectId: number,
  product: string | number,
  timeoutSeconds: number,
): Promise<ProjectData> {
  const key = `${projectId}:${product}`;
  const cached = runs.get(key);
  if (cached && fresh(cached)) return cached.promise;
  const now = new Date();
  const entry: Entry = {
    promise: (async (): Promise<ProjectData> => {
      try {
        const s = resolveBillingSettings({
          timeouts: { totalMs: timeoutSeconds * 1000, headersMs: timeoutSeconds * 1000 },
        });
        const data = await fetchProjectData(
          { baseUrl: s.baseUrl, token: s.token, transport: s.transport },
          { projectId, product, now, config: { spikeWindowDays: 30, trailingDays: 30 } },
        );
        return { ok: true, ...data, now };
      } catch (e) {
        return { ok: false, error: e instanceof Error ? e.message : String(e) };
      }
    })(),
  };
  void entry.promise.then(() => {
    entry.settledAt = Date.now();
  });
  runs.set(key, entry);
  return entry.promise;
}

/** failures lists the projects whose billing could not be read in this run. */
export async function failures(): Promise<{ key: string; error: string }[]> {
  const out: { key: string; error: string }[] = [];
  for (const [key, e] of runs) {
    if (!fresh(e)) continue;
    const d = await e.promise;
    if (!d.ok) out.push({ key, error: d.error });
  }
  return out;
}

/** @internal forgets fetched data (tests run several "runs" in one process). */
export function resetRun(): void {
  runs.clear();
}
