/**
 * What the pack's test files share: the emulator with the file's projects (started before its tests,
 * closed after them), the pack process a test starts (closed after each test), the billing environment
 * pointing at the emulator, a stack with nothing in it, and daily series to seed projects with.
 */
import { afterAll, afterEach, beforeAll } from "vitest";
import { type BillingProjectInput, type Emulator, startEmulator } from "../../emulator";
import { type PolicyPackProcess, startPolicyPack } from "../helpers/analyzer";

/** The config `PolicyPackProcess.configure` takes. */
export type PackConfig = Parameters<PolicyPackProcess["configure"]>[0];

/** A stack with nothing planned but itself. */
export const app = [{ type: "pulumi:pulumi:Stack", name: "app-ci", props: {} }];

/** day is the UTC date `offset` days from now, as YYYY-MM-DD. */
export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** dailySeries is one charge a day from `days` days ago to yesterday, `amount(daysAgo)` each, no bonuses. */
export function dailySeries(days: number, amount: (daysAgo: number) => number) {
  const out = [];
  for (let i = days; i >= 1; i--) out.push({ day: day(-i), totalAmount: amount(i), totalBonuses: 0 });
  return out;
}

/** PackHarness is what packHarness gives a test file; read its fields inside tests, not at load. */
export interface PackHarness {
  /** The emulator, with the file's projects. */
  readonly emu: Emulator;
  /** The pack the test started last; closed after each test. */
  pack: PolicyPackProcess | undefined;
  /** The billing variables that point the pack at the emulator. */
  env(): Record<string, string>;
  /** start starts the pack with `env` (the emulator's by default) as the test's pack. */
  start(env?: Record<string, string | undefined>): Promise<PolicyPackProcess>;
}

/**
 * packHarness registers the file's hooks: the emulator with `projects` before all tests, closed after
 * them; the test's pack closed after each test.
 *
 * @example
 * const h = packHarness([{ id: 6001, products: { 1: { balance: 1000, bonuses: 0, daily: [] } } }]);
 * it("lists its policies", async () => expect((await (await h.start()).info()).policies).not.toEqual([]));
 */
export function packHarness(projects: BillingProjectInput[]): PackHarness {
  let emu: Emulator | undefined;
  const h: PackHarness = {
    get emu() {
      if (!emu) throw new Error("the emulator starts in beforeAll: read h.emu inside a test");
      return emu;
    },
    pack: undefined,
    env: () => ({ COSTGATE_BILLING_URL: h.emu.billingUrl, COSTGATE_BILLING_TOKEN: h.emu.seed.billing.token }),
    async start(env = h.env()) {
      h.pack = await startPolicyPack(env);
      return h.pack;
    },
  };
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    for (const p of projects) emu.setProject(p);
  });
  afterAll(async () => {
    await emu?.close();
  });
  afterEach(() => {
    h.pack?.close();
    h.pack = undefined;
  });
  return h;
}
