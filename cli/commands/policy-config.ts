/**
 * `costgate policy-config`: the policy pack's `--policy-pack-config` from the same file check and
 * report read, so that the three surfaces judge by one set of thresholds.
 */
import { policyPackConfig, readCostgateConfig } from "../../provider/budget/config-file";

export async function policyConfigCommand(o: Record<string, string | boolean | undefined>): Promise<number> {
  const file = readCostgateConfig(String(o["config"]));
  process.stdout.write(`${JSON.stringify(policyPackConfig(file), null, 2)}\n`);
  return 0;
}
