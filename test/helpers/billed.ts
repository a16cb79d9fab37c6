/**
 * An emulator serving one project billed `bill(day)` every day from `from` to the day before `asOf`, and the env a
 * `costgate` run needs to read it (the end-to-end tests of a charge's reading: test/hostile/first-monday.test.ts,
 * business-day.test.ts).
 */
import { type Emulator, startEmulator } from "../../emulator";
import { addDays } from "../../provider/billing/periods";

const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

export async function emulatorBilling(
  project: number,
  from: string,
  asOf: string,
  bill: (iso: string) => number,
): Promise<{ emu: Emulator; env: Record<string, string> }> {
  const emu = await startEmulator({ port: 0 });
  const daily = Array.from({ length: dayOf(asOf) - dayOf(from) }, (_, i) => {
    const day = addDays(from, i);
    return { day, totalAmount: bill(day), totalBonuses: 0 };
  });
  emu.setProject({ id: project, products: { 1: { balance: 50_000, bonuses: 0, daily } } });
  return {
    emu,
    env: { COSTGATE_BILLING_URL: emu.billingUrl, COSTGATE_BILLING_TOKEN: emu.seed.billing.token },
  };
}
