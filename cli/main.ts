/**
 * The costgate command. Each command loads its module only when it runs, so start-up stays small.
 */
import { Command, CommanderError } from "commander";
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

  program
    .command("demo")
    .description("run costgate against the embedded emulator, offline")
    .action(() => run(import("./commands/demo").then((m) => m.demoCommand())));

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
