/**
 * The typed options of `costgate emulator`. Their values are checked by the emulator itself (emulator/main.ts),
 * which reads them as its own command line; here they are only gathered.
 */
import { type Flags, text } from "./parse";

/** `costgate emulator`'s options, as given (commander fills in the defaults of host, port, seed and TTL). */
export interface EmulatorOptions {
  host: string;
  port?: string;
  seed?: string;
  tokenTtl?: string;
  knobs?: string;
  allowHost?: string;
  json: boolean;
}

/** emulatorOptions gathers `costgate emulator`'s flags. */
export function emulatorOptions(o: Flags): EmulatorOptions {
  const given = (key: keyof EmulatorOptions) => {
    const v = text(o, key);
    return v === undefined ? {} : { [key]: v };
  };
  return {
    host: text(o, "host") ?? "127.0.0.1",
    ...given("port"),
    ...given("seed"),
    ...given("tokenTtl"),
    ...given("knobs"),
    ...given("allowHost"),
    json: o["json"] === true,
  };
}

/** The emulator's own flag of each option. */
export const EMULATOR_FLAGS = {
  host: "--host",
  port: "--port",
  seed: "--seed",
  tokenTtl: "--token-ttl",
  knobs: "--knobs",
  allowHost: "--allow-host",
} as const satisfies Partial<Record<keyof EmulatorOptions, string>>;
