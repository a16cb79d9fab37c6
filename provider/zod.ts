import type * as Zod from "zod";

/**
 * zod requires zod when a schema is first built: ~60 ms and 95 files, which a command whose input is
 * surely valid never pays (its modules check such input by hand and ask zod only to name a bad field,
 * or for a JSON Schema). Modules import zod's types only, and call this where they build a schema.
 * @internal
 */
export function zod(): typeof Zod.z {
  return (require("zod") as typeof Zod).z;
}
