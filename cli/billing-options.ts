/**
 * Flags shared by the billing commands.
 */
import type { Command } from "commander";
import { addTransportOptions } from "./transport-options";

/** The most requests one command run sends when neither --max-requests nor COSTGATE_MAX_REQUESTS says. */
export const DEFAULT_RUN_REQUESTS = 500;

/** addBillingOptions adds --project-id, --product, --billing-url, TLS, --timeout and --retries. */
export function addBillingOptions(cmd: Command): Command {
  cmd
    .option("--project-id <id>", "the project id from the project card (env COSTGATE_PROJECT_ID)")
    .option(
      "--product <product>",
      "1|openstack, 2|object-storage, 3|vmware (env COSTGATE_PRODUCT; default openstack)",
    )
    .option("--billing-url <url>", "billing base URL; /bill/graphql is added (env COSTGATE_BILLING_URL)")
    .option("--os-cacert <file>", "CA bundle to trust (env OS_CACERT)")
    .option("--insecure", "skip TLS verification (prefer --os-cacert; env OS_INSECURE)")
    .option(
      "--max-requests <n>",
      `most requests this run sends, retries included (default ${DEFAULT_RUN_REQUESTS}; env COSTGATE_MAX_REQUESTS)`,
    );
  return addTransportOptions(cmd);
}
