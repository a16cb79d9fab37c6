/**
 * `costgate policy-config`: the policy pack's `--policy-pack-config` from the same file check and
 * report read, so that the three surfaces judge by one set of thresholds.
 */
import { resolve } from "node:path";
import { policyPackConfig } from "../../provider/budget/config-file";
import { safeJson } from "../../provider/text";
import { writeFileAtomic } from "../files";
import type { PolicyConfigOptions } from "../options";

/** policyConfigCommand prints the pack's config, or with --output replaces that file whole. */
export async function policyConfigCommand({ file, output }: PolicyConfigOptions): Promise<number> {
  const json = `${safeJson(policyPackConfig(file), 2)}\n`;
  if (output !== undefined) writeFileAtomic(resolve(output), json, "--output");
  else process.stdout.write(json);
  return 0;
}
