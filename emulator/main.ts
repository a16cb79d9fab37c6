/**
 * The emulator as a process: `node dist/emulator/main.js --port 5000 --seed demo --token-ttl 3600`.
 * Prints the URLs and seeded credentials, serves until SIGINT or SIGTERM.
 */
import { parseArgs } from "node:util";
import { formatBanner } from "./banner";
import { applyKnobs, defaultKnobs } from "./knobs";
import { type Emulator, type EmulatorOptions, startEmulator } from "./server";

/** USAGE is the emulator's help text. */
export const USAGE = `usage: node dist/emulator/main.js [--host 127.0.0.1] [--port 0] [--seed demo] [--token-ttl 3600] [--knobs JSON] [--allow-host NAME,...] [--json]

  --host       interface to listen on (default 127.0.0.1)
  --allow-host more names requests may give in Host (a container's service name); others than
               loopback names and the --host address are refused with 403 (DNS rebinding)
  --port       port, 0 for a free one (default 0)
  --seed       seed of ids, credentials and charges (default demo)
  --token-ttl  identity token lifetime in seconds (default 3600)
  --knobs      faults and representations from the start, e.g. '{"billing":{"status":503,"failTimes":2}}'
               (change them later with PUT /_emulator/knobs)
  --json       print the URLs and seed as one JSON object instead of the banner
`;

/** UsageError is a bad command line; its message names the option. */
export class UsageError extends Error {}

/** EmulatorArgs are the parsed command line: options for startEmulator, and the output form. */
export interface EmulatorArgs {
  help: boolean;
  json: boolean;
  options: EmulatorOptions & { tokenTtlSeconds: number };
  /** The knobs to set once started (--knobs), already validated. */
  knobs?: unknown;
}

/**
 * parseEmulatorArgs reads the command line (node:util parseArgs) or throws UsageError.
 *
 * @example parseEmulatorArgs(["--port", "5000", "--seed", "demo"]).options.port // 5000
 */
export function parseEmulatorArgs(argv: string[]): EmulatorArgs {
  let values: {
    host?: string;
    port?: string;
    seed?: string;
    "token-ttl"?: string;
    knobs?: string;
    "allow-host"?: string;
    json?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        host: { type: "string" },
        port: { type: "string", short: "p" },
        seed: { type: "string" },
        "token-ttl": { type: "string" },
        knobs: { type: "string" },
        "allow-host": { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d+$/.test(values.port ?? "0") || port > 65535) {
    throw new UsageError(`--port must be a number from 0 to 65535, got "${values.port}"`);
  }
  const ttl = values["token-ttl"] === undefined ? 3600 : Number(values["token-ttl"]);
  if (!(ttl > 0))
    throw new UsageError(`--token-ttl must be a positive number of seconds, got "${values["token-ttl"]}"`);
  const options: EmulatorArgs["options"] = { port, tokenTtlSeconds: ttl };
  if (values.host !== undefined) options.host = values.host;
  if (values.seed !== undefined) options.seed = values.seed;
  if (values["allow-host"] !== undefined) {
    const names = values["allow-host"].split(",").map((n) => n.trim());
    if (names.some((n) => !/^[A-Za-z0-9.-]{1,253}$/.test(n))) {
      throw new UsageError(
        `--allow-host takes host names separated by commas, e.g. --allow-host emulator,ci-runner, got "${values["allow-host"]}"`,
      );
    }
    options.allowedHosts = names;
  }
  const args: EmulatorArgs = { help: values.help ?? false, json: values.json ?? false, options };
  if (values.knobs !== undefined) args.knobs = parseKnobs(values.knobs);
  return args;
}

/** parseKnobs reads --knobs and checks it against fresh knobs, or throws UsageError naming the knob. */
function parseKnobs(text: string): unknown {
  let patch: unknown;
  try {
    patch = JSON.parse(text);
  } catch {
    throw new UsageError(
      `--knobs must be JSON, e.g. '{"billing":{"status":503,"failTimes":2}}', got ${text}`,
    );
  }
  try {
    applyKnobs(defaultKnobs(), patch);
  } catch (e) {
    throw new UsageError(`--knobs: ${(e as Error).message}`);
  }
  return patch;
}

/**
 * main starts the emulator from a command line, writes where it listens and what it was seeded
 * with, and (with `signals`) stops it on SIGINT/SIGTERM. Resolves with the running emulator,
 * or undefined after --help.
 *
 * @example const emu = await main(["--port", "0", "--json"], { write: (s) => out.push(s), signals: false });
 */
export async function main(
  argv: string[] = process.argv.slice(2),
  io: { write: (text: string) => void; signals: boolean } = {
    write: (text) => process.stdout.write(text),
    signals: true,
  },
): Promise<Emulator | undefined> {
  const args = parseEmulatorArgs(argv);
  if (args.help) {
    io.write(USAGE);
    return undefined;
  }
  const emu = await startEmulator(args.options);
  if (args.knobs !== undefined) applyKnobs(emu.knobs, args.knobs);
  // before anything is printed: whoever reads the banner may stop the emulator right away
  if (io.signals) {
    // close drops open connections at once; a slow close does not hold the exit back
    const stop = () => {
      const wait = new Promise((resolve) => setTimeout(resolve, 200).unref());
      void Promise.race([emu.close().catch(() => undefined), wait]).then(() => process.exit(0));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  }

  if (args.json) {
    const { url, identityUrl, billingUrl, seed } = emu;
    const ttl = args.options.tokenTtlSeconds;
    io.write(`${JSON.stringify({ url, identityUrl, billingUrl, tokenTtlSeconds: ttl, seed })}\n`);
  } else {
    io.write(formatBanner(emu, { tokenTtlSeconds: args.options.tokenTtlSeconds }));
  }
  return emu;
}

if (require.main === module) {
  main().catch((err: unknown) => {
    const usage = err instanceof UsageError;
    process.stderr.write(
      `emulator: ${err instanceof Error ? err.message : String(err)}\n${usage ? USAGE : ""}`,
    );
    process.exit(usage ? 2 : 1);
  });
}
