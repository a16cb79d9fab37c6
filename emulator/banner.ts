/**
 * formatBanner: what `costgate emulator` prints at start, the URLs and seeded credentials in a
 * form users can paste into a shell.
 */
import { KNOBS_PATH } from "./knobs";
import type { Emulator } from "./server";

const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/**
 * formatBanner describes a running emulator: URLs, password and application-credential
 * environment, the non-ASCII user, the billing token and the billing projects.
 *
 * @example console.log(formatBanner(emu, { tokenTtlSeconds: 3600 }));
 */
export function formatBanner(emu: Emulator, opts: { tokenTtlSeconds?: number } = {}): string {
  const s = emu.seed;
  const demo = s.users.demo;
  const marta = s.users.unicode;
  const cred = s.applicationCredentials.demo;
  const project = s.projects.demo;
  const lines = [
    `costgate emulator (seed ${JSON.stringify(String(s.seed))}) listening on ${emu.url}`,
    "",
    `Identity (Keystone v3):  ${emu.identityUrl}`,
    `Billing (GraphQL):       ${emu.billingUrl}  (POST ${emu.billingUrl}/bill/graphql)`,
    "",
    "# password, project scope (docs/API.md#issue-a-token-with-a-password)",
    `export OS_AUTH_URL=${q(emu.identityUrl)} OS_REGION_NAME=${s.regionId} OS_IDENTITY_API_VERSION=3`,
    `export OS_USERNAME=${q(demo.name)} OS_USER_DOMAIN_NAME=${q(demo.domain.name)} OS_PASSWORD=${q(demo.password)}`,
    `export OS_PROJECT_NAME=${q(project.name)} OS_PROJECT_DOMAIN_ID=${q(project.domain.id)}`,
    "",
    "# application credential (docs/API.md#issue-a-token-with-an-application-credential)",
    `export OS_AUTH_URL=${q(emu.identityUrl)} OS_AUTH_TYPE=v3applicationcredential OS_APPLICATION_CREDENTIAL_ID=${q(cred.id)}`,
    `export OS_APPLICATION_CREDENTIAL_SECRET=${q(cred.secret)}`,
    "",
    `# a user with a non-ASCII password: ${marta.name} in domain ${q(marta.domain.name)}, password ${q(marta.password)}`,
    "",
    `# billing console access tokens (send as X-User-Token to ${emu.billingUrl}/bill/graphql)`,
    ...s.billing.tokens.map((t) => `#   ${t.name} (${t.role}): ${t.token}`),
    `export COSTGATE_BILLING_URL=${q(emu.billingUrl)} COSTGATE_BILLING_TOKEN=${q(s.billing.token)}`,
    "",
    "# billing projects (externalSubscriptionId: productIds)",
    ...s.billing.projects.map((p) => `#   ${p.id}: ${p.products.join(", ")}  ${p.description}`),
    `#   ${project.name} is billing project ${project.billingProjectId}; spike day ${s.billing.spikeDay}`,
  ];
  if (opts.tokenTtlSeconds !== undefined) lines.push("", `Identity tokens live ${opts.tokenTtlSeconds} s.`);
  lines.push(
    "",
    "# faults on demand (GET shows the knobs, DELETE resets them):",
    `#   curl -X PUT ${emu.url}${KNOBS_PATH} -H 'Content-Type: application/json' -d '{"billing":{"status":503,"retryAfter":1,"failTimes":2}}'`,
  );
  return `${lines.join("\n")}\n`;
}
