/**
 * The costgate command. Each command loads its module only when it runs, so start-up stays small.
 */
import { Command, CommanderError } from "commander";
import { addBillingOptions } from "./billing-options";
import { EXIT, reportError } from "./errors";
import { addIdentityOptions } from "./identity-options";

type Opts = Record<string, string | boolean | undefined>;

function version(): string {
  return (require("../../package.json") as { version: string }).version;
}

/** buildProgram declares every command and its flags. */
export function buildProgram(run: (code: Promise<number>) => void): Command {
  const program = new Command("costgate")
    .description("Keystone tokens, project balance and budget gates for an OpenStack-based cloud")
    .version(version(), "-V, --version")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();

  addIdentityOptions(
    program
      .command("token")
      .description("issue an OS_TOKEN and print it; with --json, print what Keystone says of it")
      .option("--json", "print {token, expiresAt, issuedAt, methods, user, project, roles, catalog} as JSON"),
  )
    .addHelpText(
      "after",
      `
Examples:
  export OS_TOKEN=$(costgate token)                    # with OS_AUTH_URL, OS_APPLICATION_CREDENTIAL_ID/SECRET
  costgate token --os-cloud prod --json                # a cloud of clouds.yaml
  OS_PASSWORD=... costgate token --os-auth-url https://identity.example/v3 \\
    --os-username ci --os-user-domain-name Default --os-project-name web --os-project-domain-id default

Exit codes: 0 ok, 2 bad usage or settings (nothing sent), 3 the API refused or could not be reached.`,
    )
    .action((opts: Opts) => run(import("./commands/token").then((m) => m.tokenCommand(opts))));

  addBillingOptions(
    program
      .command("balance")
      .description("print a project's balance and bonuses")
      .option("--json", "print {projectId, productId, balance, bonuses, fetchedAt}"),
  )
    .addHelpText(
      "after",
      `
Examples:
  COSTGATE_BILLING_URL=https://console.example COSTGATE_BILLING_TOKEN=... costgate balance --project-id 4242
  costgate balance --project-id 4242 --product object-storage --json

The access token is a console access token (access management → access tokens), sent as X-User-Token.`,
    )
    .action((opts: Opts) => run(import("./commands/billing").then((m) => m.balanceCommand(opts))));

  addBillingOptions(
    program
      .command("usage")
      .description("print a project's charges per day for a period")
      .option("--from <day>", "first day: YYYY-MM-DD or an ISO timestamp")
      .option("--to <day>", "last day: YYYY-MM-DD (the whole day) or an ISO timestamp")
      .option(
        "--json",
        "print {projectId, productId, periodFrom, periodTo, items, total, dailyAverage, days}",
      )
      .option("--csv", "print day,totalAmount,totalBonuses")
      .option("--fill-missing-days", "list days without charges as 0")
      .option("--window-days <n>", "longest period asked for in one request (default 31)")
      .option("--concurrency <n>", "requests at once for long periods (default 4)"),
  )
    .addHelpText(
      "after",
      `
Examples:
  costgate usage --project-id 4242 --from 2026-11-01 --to 2026-11-22
  costgate usage --project-id 4242 --from 2024-01-01 --to 2026-11-22 --json > usage.json`,
    )
    .action((opts: Opts) => run(import("./commands/billing").then((m) => m.usageCommand(opts))));

  program
    .command("demo")
    .description(
      "run costgate against the embedded emulator, offline: a token, a balance, 60 days of charges",
    )
    .action(() => run(import("./commands/demo").then((m) => m.demoCommand())));

  program
    .command("emulator")
    .description(
      "run the local cloud (identity + billing) for offline tests and CI; prints URLs and credentials",
    )
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <port>", "port (0: any free port)", "5000")
    .option("--seed <seed>", "seed of the generated data and credentials", "demo")
    .option("--token-ttl <seconds>", "token lifetime in seconds", "3600")
    .option("--json", "print the URLs and seed data as JSON")
    .addHelpText(
      "after",
      `
Examples:
  costgate emulator --port 5000            # then paste the printed export lines
  costgate emulator --port 0 --json        # for scripts: {url, identityUrl, billingUrl, seed}`,
    )
    .action((opts: Opts) => run(import("./commands/emulator").then((m) => m.emulatorCommand(opts))));

  return program;
}

/** main runs the command line and sets the exit code. */
export async function main(argv: string[] = process.argv): Promise<void> {
  let pending: Promise<number> | undefined;
  const program = buildProgram((p) => {
    pending = p;
  });
  try {
    await program.parseAsync(argv);
    process.exitCode = pending ? await pending : EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      const ok =
        e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help";
      process.exitCode = ok ? EXIT.ok : EXIT.usage;
      return;
    }
    process.exitCode = reportError(e);
  }
}
