/**
 * Flags shared by the billing commands.
 */
import type { Command } from "commander";

/** addBillingOptions adds --project-id, --product, --billing-url and --timeout. */
export function addBillingOptions(cmd: Command): Command {
  return cmd
    .option("--project-id <id>", "the project id from the project card (env COSTGATE_PROJECT_ID)")
    .option(
      "--product <product>",
      "1|openstack, 2|object-storage, 3|vmware (env COSTGATE_PRODUCT; default openstack)",
    )
    .option("--billing-url <url>", "billing base URL; /bill/graphql is added (env COSTGATE_BILLING_URL)")
    .option("--os-cacert <file>", "CA bundle to trust (env OS_CACERT)")
    .option("--insecure", "skip TLS verification (prefer --os-cacert; env OS_INSECURE)")
    .option(
      "--timeout <seconds>",
      "timeout of each request in seconds (default 60; env COSTGATE_TIMEOUT_MS)",
    );
}
