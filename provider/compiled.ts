/**
 * Schemas parsed again and again are parsed by zod's compiled parser (`z.compile`): one generated
 * function for the whole schema, 4-10× faster than the runtime parser, and already fast on its
 * first calls, before V8 has warmed zod up. Compiling costs 2-8 ms, more than a few runtime parses,
 * so it waits for the third parse: a one-shot command (`costgate token` validates the credential
 * twice and parses one token body) never pays for it, a process that keeps issuing tokens does once.
 * @internal
 */
import { z } from "zod";

/** The parse that compiles: later ones are compiled. */
export const COMPILE_AT = 3;

/**
 * safeParser returns `schema.safeParse`, compiled from its third call on. The results are the
 * same: the compiled schema is a clone that hands any input it does not accept to the runtime
 * parser, so errors and their issues are the runtime's. Without `z.compile` (a zod before 4.6) or
 * where code cannot be generated (`new Function` refused), it stays the runtime parser.
 */
export function safeParser<T extends z.ZodType>(
  schema: T,
): (input: unknown) => z.ZodSafeParseResult<z.output<T>> {
  let current = schema;
  let calls = 0;
  return (input) => {
    if (calls < COMPILE_AT && ++calls === COMPILE_AT) current = compiled(schema);
    return current.safeParse(input);
  };
}

/** compiled is `z.compile(schema)`, or the schema itself when zod cannot compile it. */
export function compiled<T extends z.ZodType>(schema: T): T {
  const compile = (z as { compile?: (s: T) => T }).compile;
  if (typeof compile !== "function") return schema;
  try {
    return compile(schema);
  } catch {
    return schema;
  }
}
