/**
 * Billing data for the pack: one fetch per project and product per run, with a timeout, shared by
 * every policy. Policies cannot see data sources or read resources (PULUMI-NOTES.md), so the pack
 * reads billing itself, with `COSTGATE_BILLING_URL` and `COSTGATE_BILLING_TOKEN` from the environment.
 */
import type { ProjectBalance, ProjectConsumption } from "../../provider/billing/results";
import { fetchProjectData } from "../../provider/check";
import { resolveBillingSettings } from "../../provider/settings";

/** Data of one project, or why it could not be read. */
export type ProjectData =
  | { ok: true; balance: ProjectBalance; consumption: ProjectConsumption }
  | { ok: false; error: string };

const runs = new Map<string, Promise<ProjectData>>();

/** The moment of this run: every policy judges the same "today". */
export const runStartedAt = new Date();

/** projectData fetches once per run; errors become a ProjectData the policies report. */
export function projectData(
  projectId: number,
  product: string | number,
  timeoutSeconds: number,
): Promise<ProjectData> {
  const key = `${projectId}:${product}`;
  let p = runs.get(key);
  if (!p) {
    p = (async (): Promise<ProjectData> => {
      try {
        const s = resolveBillingSettings({
          timeouts: { totalMs: timeoutSeconds * 1000, headersMs: timeoutSeconds * 1000 },
        });
        const data = await fetchProjectData(
          { baseUrl: s.baseUrl, token: s.token, transport: s.transport },
          { projectId, product, now: runStartedAt, config: { spikeWindowDays: 30, trailingDays: 30 } },
        );
        return { ok: true, ...data };
      } catch (e) {
        return { ok: false, error: e instanceof Error ? e.message : String(e) };
      }
    })();
    runs.set(key, p);
  }
  return p;
}

/** failures lists the projects whose billing could not be read in this run so far. */
export async function failures(): Promise<{ key: string; error: string }[]> {
  const out: { key: string; error: string }[] = [];
  for (const [key, p] of runs) {
    const d = await p;
    if (!d.ok) out.push({ key, error: d.error });
  }
  return out;
}

/** @internal forgets fetched data (tests run several "runs" in one process). */
export function resetRun(): void {
  runs.clear();
}
