import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** The package's own subpath imports (the policy pack's `costgate/budget`, ...) from the sources. */
export const selfAlias = [
  {
    find: /^costgate\/(identity|billing|budget)$/,
    replacement: fileURLToPath(new URL("./provider/entries/$1.ts", import.meta.url)),
  },
];

export default defineConfig({
  resolve: { alias: selfAlias },
  test: {
    globalSetup: ["test/keystone/global-setup.ts"],
    setupFiles: ["test/helpers/leak-warnings.ts"],
    include: ["test/**/*.test.ts"],
    testTimeout: 30000,
    hookTimeout: 180000,
  },
});
