/**
 * The costgate command. Each command loads its module only when it runs, so start-up stays small.
 */
import { Command, CommanderError } from "commander";
import { cleanText } from "../provider/text";
import { addBillingOptions } from "./billing-options";
import { noticeEmulator } from "./emulator-notice";
import { EXIT, ioHint, reportError } from "./errors";
import { addIdentityOptions } from "./identity-options";
import type { Flags } from "./options/parse";

function version(): string {
  return (require("../../package.json") as { version: string }).version;
}

/** buildProgram declares every command and its flags. */
export function buildProgram(run: (code: Promise<number>) => void): Command {
  const program = new Command("costgate")
    .description("Keystone tokens, project balance and budget gates for an OpenStack-based cloud")
    .version(version(), "-V, --version")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    // commander's own errors in the command's style: `costgate: error: unknown option '--x'`
    .configureOutput({
      outputError: (text, write) => write(text.startsWith("error: ") ? `costgate: ${text}` : text),
    })
    .addHelpText(
      "after",
      `
Examples:
  npx costgate demo                                   # everything, offline, on the embedded emulator
  export OS_TOKEN=$(costgate token)                   # OS_AUTH_URL + OS_APPLICATION_CREDENTIAL_ID/SECRET
  costgate balance --project-id 4242 --json           # COSTGATE_BILLING_URL + COSTGATE_BILLING_TOKEN
  costgate check --project-id 4242 --min-runway-days 14 --monthly-budget 45000
  costgate report --project-id 4242 --html report.html
  costgate emulator --port 5000                       # a local cloud for offline tests and CI

Exit codes: 0 ok, 1 a mandatory budget rule failed (check), 2 bad usage or settings (nothing sent; also
bare costgate, which prints this help on stderr), 3 the API refused the request or could not be reached,
4 the output or a file could not be written, 5 an internal error (a bug: please report it).
COSTGATE_DEBUG=1 logs each request on stderr.
Run costgate <command> --help for a command's flags and examples.`,
    );

  const token = addIdentityOptions(
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
    .action((flags: Flags) =>
      run(
        Promise.all([import("./options/identity"), import("./commands/token")]).then(([o, m]) =>
          m.tokenCommand(o.tokenOptions(flags)),
        ),
      ),
    );

  addIdentityOptions(
    token
      .command("revoke")
      .description("revoke a token before it expires: the argument, - for standard input, or OS_TOKEN")
      .argument("[token]", "the token; - reads it from standard input; default OS_TOKEN"),
  )
    .addHelpText(
      "after",
      `
Examples:
  costgate token revoke "$OS_TOKEN"                    # with OS_AUTH_URL; the token revokes itself
  costgate token | costgate token revoke -             # a token piped in
  OS_TOKEN=... costgate token revoke

The token is never printed. Exit codes: 0 revoked (or already invalid), 2 bad usage, 3 the API refused.`,
    )
    .action((tokenArg: string | undefined, flags: Flags) =>
      run(
        Promise.all([import("./options/identity"), import("./commands/token-hygiene")]).then(([o, m]) =>
          m.revokeCommand(tokenArg, o.revokeOptions(flags)),
        ),
      ),
    );

  addIdentityOptions(
    program
      .command("exec")
      .description("issue a token, run a command with it, revoke the token when the command ends")
      .argument("<command...>", "the command and its arguments, after --")
      .option(
        "--grace-period <seconds>",
        "how long the command gets to end after a signal before it is killed (env COSTGATE_EXEC_GRACE_SECONDS, default 10)",
      ),
  )
    .addHelpText(
      "after",
      `
Examples:
  costgate exec -- openstack region list      # any credential
  costgate exec -- openstack catalog list     # a password credential: any openstack call (server list...)

The command gets OS_TOKEN, OS_AUTH_URL, OS_IDENTITY_API_VERSION=3 and no credential (every other OS_*
variable is removed but the region, interface, TLS files and API versions). From a password: OS_AUTH_TYPE=
v3token and OS_PROJECT_ID. From an application credential: OS_AUTH_TYPE=admin_token and OS_ENDPOINT (the
identity address) and no scope: Keystone refuses to exchange such a token, so openstack and openstacksdk
reach Keystone only; gophercloud tools (costgate exec -- terraform apply, pulumi up with pulumi-openstack)
use the token as it is, from either credential.

The token is revoked however the run ends: the command exits or cannot start, costgate fails, or costgate
gets SIGHUP, SIGINT, SIGQUIT or SIGTERM, which it passes on (not Ctrl+C / Ctrl+\\ from a terminal: the
command gets those itself) and kills the command if it has not ended after the grace period. The revoke
gets 10 s. Exit code: the command's; 128 + the signal when costgate got one or one ended the command
(HUP 129, INT 130, QUIT 131, TERM 143); 127 not found, 126 cannot run; 2 bad usage, 3 no token.`,
    )
    .action((command: string[], flags: Flags) =>
      run(
        Promise.all([import("./options/identity"), import("./commands/exec")]).then(([o, m]) =>
          m.execCommand(command, o.execOptions(flags)),
        ),
      ),
    );

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
    .action((flags: Flags) =>
      run(
        Promise.all([import("./options/billing"), import("./commands/billing")]).then(([o, m]) =>
          m.balanceCommand(o.balanceOptions(flags)),
        ),
      ),
    );

  addBillingOptions(
    program
      .command("usage")
      .description("print a project's charges per day for a period")
      .option("--from <day>", "first day: YYYY-MM-DD or an ISO timestamp")
      .option("--to <day>", "last day: YYYY-MM-DD (the whole day) or an ISO timestamp (default today)")
      .option(
        "--json",
        "print {projectId, productId, periodFrom, periodTo, items, total, dailyAverage, days}",
      )
      .option("--csv", "print day,totalAmount,totalBonuses")
      .option("--fill-missing-days", "list days without charges as 0")
      .option("--window-days <n>", "longest period asked for in one request (default 31)")
      .option("--concurrency <n>", "requests at once for long periods (default 4)")
      .option("--max-period-days <n>", "longest period read, in days (default 1096: about 3 years)"),
  )
    .addHelpText(
      "after",
      `
Examples:
  costgate usage --project-id 4242 --from 2026-11-01 --to 2026-11-22
  costgate usage --project-id 4242 --from 2024-01-01 --to 2026-11-22 --json > usage.json`,
    )
    .action((flags: Flags) =>
      run(
        Promise.all([import("./options/billing"), import("./commands/billing")]).then(([o, m]) =>
          m.usageCommand(o.usageOptions(flags)),
        ),
      ),
    );

  addBillingOptions(
    program
      .command("check")
      .description("run the budget rules on live billing data; exit 1 when a mandatory rule fails")
      .option(
        "--quantile <q>",
        "the forecast model's quantile monthly-budget and min-runway-days judge: p50, p80 or p90 (default p80)",
      )
      .option(
        "--as-of <day>",
        "judge as at the start of this UTC day (YYYY-MM-DD): no charge of that day or later is read; balance rules are not judged",
      )
      .option(
        "--config <file>",
        "projects, product and thresholds from a JSON or YAML file (flags win over it)",
      )
      .option(
        "--summary <file>",
        "append the verdicts as Markdown to this file (default under GitHub Actions: $GITHUB_STEP_SUMMARY)",
      )
      .option("--min-balance <amount>", "balance must stay at or above this")
      .option("--include-bonuses", "count bonuses towards the balance and runway")
      .option("--monthly-budget <amount>", "month-to-date spend plus forecast must fit this")
      .option("--min-runway-days <days>", "days the balance must last at the forecast spend")
      .option("--spike-factor <factor>", "flag yesterday above the 14-day median times this (advisory)")
      .option(
        "--level <rule=level>",
        "set a rule's level: mandatory, advisory or disabled (repeatable)",
        (v: string, prev: string[] = []) => [...prev, v],
      )
      .option("--concurrency <n>", "projects checked at once (default 8)")
      .option("--json", "print {verdict, checkedAt, projects: [{projectId, evaluation | error}]}")
      .option("--max-input-size <size>", "largest config file read, e.g. 4MiB (default 1 MiB)"),
  )
    .addHelpText(
      "after",
      `
Several projects: --project-id 4242,1001 (or COSTGATE_PROJECT_ID=4242,1001).

Examples:
  costgate check --project-id 4242 --min-balance 5000 --min-runway-days 14
  costgate check --project-id 4242 --monthly-budget 40000 --spike-factor 2.5 --json

Exit codes: 0 every mandatory rule judged passes (advisories printed), 1 a mandatory rule fails,
2 bad usage (nothing sent) or no verdict (no mandatory rule could be judged, e.g. balance rules
with --as-of), 3 billing unreachable, 4 the summary could not be written (only when the code would
have been 0: a failing gate's 1 wins, with the write error on stderr).`,
    )
    .action((flags: Flags) =>
      run(
        Promise.all([import("./options/gate"), import("./commands/check")]).then(([o, m]) =>
          m.checkCommand(o.checkOptions(flags)),
        ),
      ),
    );

  addBillingOptions(
    program
      .command("cost")
      .description(
        "price a `pulumi preview --json` with the rate card: per resource and in total, per month, before and after",
      )
      .option("--preview <file>", "the preview digest `pulumi preview --json` wrote, or - for standard input")
      .option(
        "--rate-card <file>",
        "the rate card (JSON or YAML; costgate/rate-card.schema.json), else rateCard in --config",
      )
      .option(
        "--config <file>",
        "rate card, project and thresholds from the costgate config file (flags win over it)",
      )
      .option("--currency <code>", "name the currency of the rate card's prices, e.g. EUR")
      .option("--max-monthly-increase <amount>", "fail when the change adds more than this a month")
      .option(
        "--max-increase-percent <p>",
        "fail when the change raises the priced resources' monthly cost by more than p %",
      )
      .option(
        "--fail-on-unpriced",
        "fail when a resource cannot be priced (it is always listed, never counted as 0)",
      )
      .option("--monthly-budget <amount>", "with --project-id: the monthly budget, judged after the change")
      .option("--min-balance <amount>", "with --project-id: the balance to stay at or above")
      .option("--min-runway-days <days>", "with --project-id: days the balance must last after the change")
      .option(
        "--quantile <q>",
        "the forecast model's quantile the budget rules judge: p50, p80 or p90 (default p80)",
      )
      .option("--json", "print {currency, totals, resources, unpriced, thisMonth, forecast, gates, verdict}")
      .option(
        "--markdown",
        "print a pull-request comment: changed resources, totals, verdicts, unchanged ones folded",
      )
      .option(
        "--quiet-below <amount>",
        "with --markdown / --summary: write nothing when the monthly change is smaller",
      )
      .option("--summary <file>", 'also append the Markdown to this file (e.g. "$GITHUB_STEP_SUMMARY")')
      .option(
        "--max-input-size <size>",
        "largest file or input read, e.g. 512MiB (default 64 MiB for --preview, 1 MiB for a config file or rate card)",
      ),
  )
    .addHelpText(
      "after",
      `
Examples:
  pulumi preview --json > preview.json
  costgate cost --preview preview.json --rate-card rates.yaml
  pulumi preview --json | costgate cost --preview - --config costgate.yaml --max-monthly-increase 500
  costgate cost --preview preview.json --config costgate.yaml --project-id 4242 --monthly-budget 45000 --markdown

A month is 730 hours unless the card prices by the month. Secrets ("[secret]") and values unknown until
apply are never used as prices: such resources are listed as unpriced, with the reason.
Exit codes: 0 no mandatory gate failed (or none set), 1 a gate failed, 2 bad usage or a preview that
is not \`pulumi preview --json\` output or is over --max-input-size (nothing sent), 3 billing unreachable,
4 --summary could not be written (a failing gate's 1 wins).`,
    )
    .action((flags: Flags) =>
      run(
        Promise.all([import("./options/cost"), import("./commands/cost")]).then(([o, m]) =>
          m.costCommand(o.costOptions(flags)),
        ),
      ),
    );

  addBillingOptions(
    program
      .command("report")
      .description(
        "show a project's balance, daily spend against the budget, forecast, runway and rule verdicts",
      )
      .option(
        "--config <file>",
        "project, product and thresholds from a JSON or YAML file (flags win over it)",
      )
      .option(
        "--summary <file>",
        'also append the Markdown report to this file (e.g. "$GITHUB_STEP_SUMMARY")',
      )
      .option("--from <day>", "first day: YYYY-MM-DD or an ISO timestamp (default: 59 days before --to)")
      .option("--to <day>", "last day: YYYY-MM-DD (the whole day) or an ISO timestamp (default: today)")
      .option("--max-period-days <n>", "longest period read, in days (default 1096: about 3 years)")
      .option(
        "--as-of <day>",
        "report as at the start of this UTC day (YYYY-MM-DD): no charge of that day or later is read, nor the balance",
      )
      .option(
        "--quantile <q>",
        "the forecast model's quantile monthly-budget and min-runway-days judge: p50, p80 or p90 (default p80)",
      )
      .option(
        "--currency <code>",
        "name the currency beside amounts, e.g. EUR (the billing API does not say)",
      )
      .option("--html <file>", "also write a self-contained HTML report (chart, verdicts, data) to this file")
      .option("--markdown", "print Markdown for a pull-request comment instead of the terminal report")
      .option(
        "--gate",
        "exit as check does: 1 when a mandatory rule fails, 2 when there is no verdict (no threshold: nothing is read)",
      )
      .option("--json", "print {balance, consumption, forecast, config, evaluation} as JSON")
      .option("--monthly-budget <amount>", "budget of a calendar month; its daily allowance is marked")
      .option("--min-balance <amount>", "balance to stay at or above")
      .option("--min-runway-days <days>", "days the balance must last at the forecast spend")
      .option("--spike-factor <factor>", "flag yesterday above this many times the 14-day median (default 2)")
      .option("--max-input-size <size>", "largest config file read, e.g. 4MiB (default 1 MiB)"),
  )
    .addHelpText(
      "after",
      `
Examples:
  export COSTGATE_BILLING_URL=https://console.example COSTGATE_BILLING_TOKEN=...
  costgate report --project-id 4242 --monthly-budget 40000 --min-runway-days 14
  costgate report --project-id 4242 --monthly-budget 40000 --html report.html   # open it in a browser
  costgate report --project-id 4242 --from 2026-10-01 --to 2026-10-31 --markdown >> "$GITHUB_STEP_SUMMARY"
  costgate report --project-id 4242 --min-balance 5000 --json | jq .evaluation.verdict
  costgate report --project-id 4242 --monthly-budget 40000 --as-of 2026-11-10   # what the gate saw on the 10th

Colors only on a terminal, never with NO_COLOR; progress on stderr only on a terminal.
With no mandatory rule judged the report gives no verdict (never PASS). Exit codes: 0 the report was made
(whatever the verdict; with --gate, 1 when a mandatory rule fails and 2 when there is no verdict, as check),
2 bad usage (nothing sent), 3 the billing endpoint refused or could not be reached, 4 --html or --summary
could not be written (the old file is kept; with --gate a failing gate's 1 wins).`,
    )
    .action((flags: Flags) =>
      run(
        Promise.all([import("./options/gate"), import("./commands/report")]).then(([o, m]) =>
          m.reportCommand(o.reportOptions(flags)),
        ),
      ),
    );

  addBillingOptions(
    program
      .command("watch")
      .description(
        "re-read billing every --interval, serve the figures to Prometheus, and post alerts that fire once",
      )
      .option(
        "--config <file>",
        "projects, product and thresholds from a JSON or YAML file (flags win over it)",
      )
      .option("--interval <duration>", "time between reads: seconds or 90s, 15m, 1h (default 15m, jittered)")
      .option(
        "--listen <host:port>",
        "where /metrics, /healthz and /readyz are served (default 127.0.0.1:9464)",
      )
      .option(
        "--webhook <url>",
        "post alerts as JSON here (repeatable; env COSTGATE_WEBHOOK_URL)",
        (v: string, prev: string[] = []) => [...prev, v],
      )
      .option(
        "--slack-webhook <url>",
        "post alerts to this Slack incoming webhook (repeatable; env COSTGATE_SLACK_WEBHOOK_URL)",
        (v: string, prev: string[] = []) => [...prev, v],
      )
      .option("--state <file>", "keep what fires and what is still to deliver here, across restarts")
      .option("--once", "read, judge, deliver what is due, save --state, exit 0")
      .option("--gate", "with --once: exit as check does (1 a mandatory rule fails, 3 unreachable)")
      .option("--min-balance <amount>", "balance must stay at or above this")
      .option("--include-bonuses", "count bonuses towards the balance and runway")
      .option("--monthly-budget <amount>", "month-to-date spend plus forecast must fit this")
      .option("--min-runway-days <days>", "days the balance must last at the forecast spend")
      .option("--spike-factor <factor>", "flag yesterday above the 14-day median times this (advisory)")
      .option("--quantile <q>", "the forecast quantile the rules judge: p50, p80 or p90 (default p80)")
      .option(
        "--level <rule=level>",
        "set a rule's level: mandatory, advisory or disabled (repeatable)",
        (v: string, prev: string[] = []) => [...prev, v],
      )
      .option("--concurrency <n>", "projects read at once (default 8)")
      .option(
        "--runway-unit <unit>",
        "days (costgate_runway_days, the default) or seconds (costgate_runway_seconds: Prometheus' base unit)",
      )
      .option("--max-input-size <size>", "largest config or state file read, e.g. 4MiB"),
  )
    .addHelpText(
      "after",
      `
Examples:
  costgate watch --config costgate.yaml --state /var/lib/costgate/watch.json
  COSTGATE_SLACK_WEBHOOK_URL=https://hooks.slack.com/services/... costgate watch --config costgate.yaml --state s.json
  costgate watch --config costgate.yaml --once --gate --state s.json     # cron or scheduled CI

--max-requests caps each cycle's requests. Exit codes: 0 stopped by SIGTERM/SIGINT or --once done;
with --once --gate check's: 1 a mandatory rule fails, 2 no verdict, 3 billing unreachable;
2 bad usage (nothing sent), 4 --state could not be written.`,
    )
    .action((flags: Flags) =>
      run(
        Promise.all([import("./options/watch"), import("./commands/watch")]).then(([o, m]) =>
          m.watchCommand(o.watchOptions(flags)),
        ),
      ),
    );

  program
    .command("demo")
    .description(
      "run costgate against the embedded emulator, offline: a token, a balance, 60 days of charges",
    )
    .option("--html <file>", "where to write the HTML report (default costgate-report.html)")
    .addHelpText("after", "\nExamples:\n  npx costgate demo\n  npx costgate demo --html /tmp/demo.html")
    .action((flags: Flags) =>
      run(
        Promise.all([import("./options/report"), import("./commands/demo")]).then(([o, m]) => {
          // the same check as report --html, before anything starts
          const html = o.htmlPathFromFlags(flags);
          return m.demoCommand(undefined, html === undefined ? undefined : { html });
        }),
      ),
    );

  program
    .command("policy-config")
    .description("print the policy pack config (--policy-pack-config) that a costgate config file describes")
    .requiredOption("--config <file>", "the JSON or YAML file check and report read")
    .option("--max-input-size <size>", "largest config file read, e.g. 4MiB (default 1 MiB)")
    .option(
      "--output <file>",
      "write the JSON to this file (replaced whole, its mode kept) instead of stdout",
    )
    .addHelpText(
      "after",
      `
Examples:
  costgate policy-config --config costgate.yaml > policy-config.json
  pulumi preview --policy-pack node_modules/costgate/policies/budget --policy-pack-config policy-config.json

Each budget policy gets the file's projects, product and its own thresholds; a policy whose threshold the
file does not set is disabled. A file without any threshold is refused (exit 2): that pack would pass
everything. Without projectId in the file, the pack reads COSTGATE_PROJECT_ID when it runs.`,
    )
    .action((flags: Flags) =>
      run(
        Promise.all([import("./options/gate"), import("./commands/policy-config")]).then(([o, m]) =>
          m.policyConfigCommand(o.policyConfigOptions(flags)),
        ),
      ),
    );

  program
    .command("emulator")
    .description(
      "run the local cloud (identity + billing) for offline tests and CI; prints URLs and credentials",
    )
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <port>", "port (0: any free port)", "5000")
    .option("--seed <seed>", "seed of the generated data and credentials", "demo")
    .option("--token-ttl <seconds>", "token lifetime in seconds", "3600")
    .option(
      "--knobs <json>",
      'faults from the start, e.g. \'{"billing":{"status":503,"failTimes":2}}\' (later: PUT /_emulator/knobs)',
    )
    .option(
      "--allow-host <names>",
      "more names requests may give in Host, comma-separated (others than loopback and --host are refused)",
    )
    .option("--json", "print the URLs and seed data as JSON")
    .addHelpText(
      "after",
      `
Examples:
  costgate emulator --port 5000            # then paste the printed export lines
  costgate emulator --port 0 --json        # for scripts: {url, identityUrl, billingUrl, seed}
  costgate emulator --knobs '{"billing":{"status":503,"retryAfter":1,"failTimes":2}}'
  curl -X PUT localhost:5000/_emulator/knobs -H 'Content-Type: application/json' -d '{"identity":{"resetConnection":true,"failTimes":1}}'
  curl localhost:5000/_emulator/knobs      # the knobs now; curl -X DELETE ... resets them

Knobs (billing and identity): status, htmlError, resetConnection, retryAfter, latencyMs, failTimes;
billing also graphqlErrors, amountFormat (number|string), dayFormat (date|timestamp), shuffle, nullBonuses;
identity also omitSubjectToken. null removes a knob.`,
    )
    .action((flags: Flags) =>
      run(
        Promise.all([import("./options/emulator"), import("./commands/emulator")]).then(([o, m]) =>
          m.emulatorCommand(o.emulatorOptions(flags)),
        ),
      ),
    );

  return program;
}

/** A declared program and the promise its command's action left (commands run through `run`). */
function declare(): { program: Command; ran: { pending?: Promise<number> } } {
  const ran: { pending?: Promise<number> } = {};
  const program = buildProgram((p) => {
    ran.pending = p;
  });
  return { program, ran };
}

/** main runs the command line and sets the exit code. */
export async function main(argv: string[] = process.argv): Promise<void> {
  // `costgate usage | head`: a closed pipe ends the command quietly; any other write failure (a full
  // disk: `> /dev/full`) is an I/O error, exit 4 — unless the command's own code is not 0 (a failing
  // gate's 1 is never hidden by an output that could not be written).
  let stdoutFailed = false;
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    if (!stdoutFailed)
      process.stderr.write(
        `costgate: error: cannot write the output (${cleanText(e.code ?? e.message)}): ${ioHint(e.code)}\n`,
      );
    stdoutFailed = true;
    if (process.exitCode === 0) process.exitCode = EXIT.io;
  });
  costgateWarnings();
  noticeEmulator();
  const { program, ran } = declare();
  // bare `costgate` is a usage error: help on stderr, exit 2 (`costgate --help` prints it on stdout, exit 0)
  if (argv.length <= 2) {
    process.stderr.write(program.helpInformation());
    process.exitCode = EXIT.usage;
    return;
  }
  try {
    await program.parseAsync(argv);
    const code = ran.pending ? await ran.pending : EXIT.ok;
    process.exitCode = stdoutFailed && code === EXIT.ok ? EXIT.io : code;
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

/**
 * costgateWarnings prints costgate's own warnings (CostgateInsecureWarning) as one line in the command's
 * style, `costgate: warning: ...`, instead of node's `(node:PID) CostgateInsecureWarning: ...`.
 */
function costgateWarnings(): void {
  const emit = process.emitWarning.bind(process);
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if (typeof type === "string" && type.startsWith("Costgate")) {
      const text = typeof warning === "string" ? warning : warning.message;
      process.stderr.write(`costgate: warning: ${cleanText(text)}\n`);
      return;
    }
    (emit as (...a: unknown[]) => void)(warning, ...rest);
  }) as typeof process.emitWarning;
}
