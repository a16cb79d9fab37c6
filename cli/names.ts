/**
 * The command line's words for the library's settings, in one place: the library names a setting by its
 * argument (`authUrl`, `caCert`, `billingUrl`), the command by the flag its user typed (`--os-auth-url`,
 * `--os-cacert`, `--billing-url`). Passed to the library with the settings (provider/errors.ts
 * SettingNames), so a refusal names the flag and the fix in the same words. The identity flags derive
 * from the one list of identity fields (provider/identity/fields.ts).
 */
import type { SettingNames } from "../provider/errors";
import { IDENTITY_FIELDS } from "../provider/identity/fields";

/** An identity field as the command line takes it. */
type IdentityField = (typeof IDENTITY_FIELDS)[number];

/**
 * identityFlagOf spells an identity field's flag as python-openstackclient does, from its environment
 * name (OS_AUTH_URL → --os-auth-url); `insecure` is plain `--insecure`.
 */
export function identityFlagOf(f: IdentityField): string {
  if (f.name === "insecure") return "--insecure";
  return `--${(f.env[0] ?? "").toLowerCase().replace(/_/g, "-")}`;
}

/** CLI_NAMES are the flags of the library's settings, as the command's errors name them. */
export const CLI_NAMES: SettingNames = {
  ...Object.fromEntries(IDENTITY_FIELDS.filter((f) => f.flag).map((f) => [f.name, identityFlagOf(f)])),
  billingUrl: "--billing-url",
  preview: "--preview",
  maxRequests: "--max-requests",
  requestsPerCycle: "--max-requests",
  // a billing period's settings (cli/period-flags.ts passes them as the library's PeriodNames)
  from: "--from",
  to: "--to",
  maxPeriodDays: "--max-period-days",
  windowDays: "--window-days",
  // the budget settings the command takes as flags (cli/options/gate.ts)
  minBalance: "--min-balance",
  monthlyBudget: "--monthly-budget",
  minRunwayDays: "--min-runway-days",
  spikeFactor: "--spike-factor",
  includeBonuses: "--include-bonuses",
  quantile: "--quantile",
};

/** flag is the command line's word for a library setting of this table. */
export function flag(setting: string): string {
  const word = CLI_NAMES[setting];
  if (word === undefined) throw new Error(`costgate: no flag for the setting ${setting} in cli/names.ts`);
  return word;
}
