/**
 * @internal The Pulumi surface needs the program's own `@pulumi/pulumi` (a peer dependency: two
 * copies in one program break resource registration). Loaded first by ./index, so that a program
 * without it is told what to install instead of a bare MODULE_NOT_FOUND.
 */
try {
  require.resolve("@pulumi/pulumi");
} catch (cause) {
  throw Object.assign(
    new Error(
      'costgate: the "costgate" entry point needs @pulumi/pulumi, a peer dependency that is not installed. ' +
        "In a Pulumi program run `npm install @pulumi/pulumi`; without Pulumi, use `costgate/identity`, " +
        "`costgate/billing` or `costgate/budget`, which do not need it.",
      { cause },
    ),
    { code: "MODULE_NOT_FOUND" },
  );
}
