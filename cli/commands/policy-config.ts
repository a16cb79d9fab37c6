/**
 * `costgate policy-config`: the policy pack's `--policy-pack-config` from the same file check and
 * report read, so that the three surfaces judge by one set of thresholds.
 */
import { resolve } from "node:path";
import { policyPackConfig, readCostgateConfig } from "../../provider/budget/config-file";
import { safeJson } from "../../provider/text";
import { inputLimitFrom, writeFileAtomic } from "../files";
import { type Flags, text } from "../options";

/** policyConfigCommand prints the pack's config, or with --output replaces that file whole. */
export async function policyConfigCommand(o: Flags): Promise<number> {
  const file = readCostgateConfig(String(o["config"]), inputLimitFrom(o));
  const json = `${safeJson(policyPackConfig(file), 2)}\n`;
  const output = text(o, "output");
  if (output !== undefined) writeFileAtomic(resolve(output), json, "--output");
  else process.stdout.write(json);
  return 0;
}
