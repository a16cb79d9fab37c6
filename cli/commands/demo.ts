/**
 * `costgate demo`: the embedded emulator, in-process and offline — issue a token, read the balance
 * and 60 days of charges of a seeded project, and show them.
 */
import { startEmulator } from "../../emulator";
import { getBalance, getConsumption } from "../../provider/billing/client";
import { findEndpoint } from "../../provider/identity/catalog";
import { issueToken, revokeToken } from "../../provider/identity/tokens";
import { money } from "../format";

/** mask shows the start of a token and its length, never the whole value. */
export function mask(token: string): string {
  return `${token.slice(0, 6)}…(${token.length} chars)`;
}

export async function demoCommand(
  out: (s: string) => void = (s) => process.stdout.write(s),
): Promise<number> {
  const emu = await startEmulator({ port: 0 });
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
    out("1. An OS_TOKEN from an application credential (POST /v3/auth/tokens)\n");
    out(`   token      ${mask(token.id)}\n`);
    out(`   expires    ${token.expiresAt} (issued ${token.issuedAt})\n`);
    out(`   project    ${token.project?.name} (${token.project?.id})\n`);
    out(`   roles      ${token.roles.map((r) => r.name).join(", ")}\n`);
    out("   catalog\n");
    for (const svc of token.catalog) {
      out(`     ${svc.type.padEnd(14)} ${findEndpoint(token.catalog, svc.type, "public") ?? "-"}\n`);
    }

    const billing = { baseUrl: emu.billingUrl, token: emu.seed.billing.token };
    const balance = await getBalance(billing, { projectId, product: "openstack" });
    const today = new Date();
    const from = new Date(today.getTime() - 59 * 86_400_000);
    const usage = await getConsumption(billing, {
      projectId,
      product: "openstack",
      from,
      to: today,
      fillMissingDays: true,
    });
    out(`\n2. Project ${projectId}: balance and 60 days of charges (POST /bill/graphql)\n`);
    out(`   balance    ${money(balance.balance)}   bonuses ${money(balance.bonuses)}\n`);
    out(
      `   spent      ${money(usage.total.amount)} over ${usage.days} days (bonuses ${money(usage.total.bonuses)})\n`,
    );
    out(
      `   average    ${money(usage.dailyAverage)}/day; last 7 days ${money(usage.trailing7DayAverage)}/day\n`,
    );
    if (usage.highestDay)
      out(`   highest    ${usage.highestDay.day}: ${money(usage.highestDay.totalAmount)}\n`);
    const runway =
      usage.trailing7DayAverage > 0 ? balance.balance / usage.trailing7DayAverage : Number.POSITIVE_INFINITY;
    out(
      `   runway     ${Number.isFinite(runway) ? `${runway.toFixed(1)} days` : "no spend"} at the last 7 days' rate\n`,
    );

    await revokeToken({ authUrl: emu.identityUrl }, token.id);
    out("\n3. The token was revoked (DELETE /v3/auth/tokens). Try it yourself: npx costgate emulator\n");
    return 0;
  } finally {
    await emu.close();
  }
}
