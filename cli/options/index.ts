/**
 * The one door for options: the parsers of values (./parse.ts) and the gate commands' typed options
 * (./gate.ts). A command imports this; the command line's start imports ./parse.ts only.
 */
export * from "./gate";
export * from "./parse";
