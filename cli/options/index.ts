/**
 * The one door for options: the parsers of values (./parse.ts) and each command's typed options, read
 * from commander's flags before any request — the gate commands' (./gate.ts), `cost`'s (./cost.ts), the
 * billing commands' (./billing.ts), the identity commands' (./identity.ts) and the emulator's
 * (./emulator.ts). main.ts loads the one a command needs when it runs; the start imports ./parse.ts only.
 */
export * from "./billing";
export * from "./cost";
export * from "./emulator";
export * from "./gate";
export * from "./identity";
export * from "./parse";
