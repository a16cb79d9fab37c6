/**
 * `costgate demo`: the embedded emulator, in-process and offline — issue a token, read the balance
 * and 60 days of charges of a seeded project, run the budget rules with demo thresholds, show the
 * report and write it as HTML.
 */
import { resolve } from "node:path";
import { startEmulator } from "../../emulator";
import type { BudgetConfig } from "../../provider/budget";
import { addDays, isoDay } from "../../provider/calendar";
import { findEndpoint } from "../../provider/identity/catalog";
import { issueToken, revokeToken } from "../../provider/identity/tokens";
import { formatMoney as money } from "../../provider/money";
import { noticeEmulator } from "../emulator-notice";
import { DEFAULT_DAYS } from "../options/report";
import { useColor } from "../report/colors";
import { fetchReportInput } from "../report/fetch";
import { buildReport, daysInMonthOf, type Report } from "../report/model";
import { emitReport } from "../report/output";
import { startProgress } from "../report/progress";

/** mask shows the start of a token and its length, never the whole value. */
export function mask(token: string): string {
  return `${token.slice(0, 6)}…(${token.length} chars)`;
}

/** The HTML file the demo writes in the current folder. */
export const DEMO_HTML = "costgate-report.html";

/**
 * demoThresholds picks the demo's budget: a monthly budget near what the project spends in a month
 * (its 30-day average × the days of this month, rounded up to a thousand), so the forecast is close
 * to it; a minimum balance of 10,000; 14 days of runway; spikes at twice the median.
 */
export function demoThresholds(r: Report): BudgetConfig {
  const last30 = r.days.slice(-31, -1);
  const avg = last30.reduce((a, d) => a + d.amount, 0) / Math.max(1, last30.length);
  const monthly = Math.ceil((avg * daysInMonthOf(r.forecast.today)) / 1000) * 1000;
  return { monthlyBudget: monthly, minBalance: 10_000, minRunwayDays: 14, spikeFactor: 2 };
}

/** DemoOptions say where the HTML report goes (default `costgate-report.html` in the current folder). */
export interface DemoOptions {
  html?: string;
}

export async function demoCommand(
  out: (s: string) => void = (s) => process.stdout.write(s),
  opts: DemoOptions = {},
): Promise<number> {
  const emu = await startEmulator({ port: 0 });
  // the demo says itself that its cloud is emulated
  noticeEmulator(false);
  try {
    const cred = emu.seed.applicationCredentials.demo;
    const projectId = emu.seed.projects.demo.billingProjectId;
    out(`costgate demo — an emulated cloud at ${emu.url} (offline)\n\n`);

    const token = await issueToken(
      { authUrl: emu.identityUrl },
      {
        type: "application_credential",
        applicationCredentialId: cred.id,
        applicationCredentialSecret: cred.secret,
      },
    );
    const compute = findEndpoint(token.catalog, "compute", "public") ?? "-";
    out(`1. An OS_TOKEN from an application credential: ${mask(token.id)}\n`);
    out(`   expires ${token.expiresAt}, project ${token.project?.name}\n`);
    out(`   catalog: ${token.catalog.map((svc) => svc.type).join(", ")}\n`);
    out(`   compute at ${compute}\n\n`);

    const now = new Date();
    const billing = { baseUrl: emu.billingUrl, token: emu.seed.billing.token };
    const query = {
      projectId,
      product: 1 as const,
      from: addDays(isoDay(now), -(DEFAULT_DAYS - 1)),
      to: isoDay(now),
    };
    const progress = startProgress("charges", "requests");
    let data: Awaited<ReturnType<typeof fetchReportInput>>;
    try {
      data = await fetchReportInput(billing, query, {}, { now, onWindow: (d, t) => progress?.update(d, t) });
    } finally {
      progress?.stop();
    }
    // one read: the thresholds come from a first report, then the report with them (the rules read what
    // `costgate report` reads for them, 12 weeks for the forecast model)
    const config = demoThresholds(buildReport({ ...data, config: {} }));
    const report = buildReport({ ...data, config });
    out(
      `2. Project ${projectId}: its balance and ${DEFAULT_DAYS} days of charges, and the budget rules with\n`,
    );
    out(
      `   demo thresholds: a monthly budget of ${money(config.monthlyBudget ?? 0)} (near its spend), a minimum\n`,
    );
    out(
      `   balance of ${money(config.minBalance ?? 0)}, ${config.minRunwayDays} days of runway, spikes at ${config.spikeFactor}× the median\n\n`,
    );
    emitReport(report, {
      format: "terminal",
      html: resolve(opts.html ?? DEMO_HTML),
      color: useColor(process.stdout),
      out,
    });

    await revokeToken({ authUrl: emu.identityUrl }, token.id);
    out("\n3. The token was revoked (DELETE /v3/auth/tokens).\n");
    out("\nOn your own project (COSTGATE_BILLING_URL, COSTGATE_BILLING_TOKEN):\n");
    out("   costgate report --project-id N --monthly-budget X --html report.html\n");
    out("Or against the emulator: npx costgate emulator\n");
    return 0;
  } finally {
    await emu.close();
  }
}
