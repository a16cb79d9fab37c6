// The fast loop (`npm run test:unit`): tests of pure code only — no Keystone, no emulator, no
// Chromium, no child processes. `npm test` runs these and every real-server suite.
import { configDefaults, defineConfig } from "vitest/config";
import { selfAlias } from "./vitest.config.mts";

export default defineConfig({
  resolve: { alias: selfAlias },
  test: {
    include: [
      "test/budget/*.test.ts",
      "test/billing/{money,periods}.test.ts",
      "test/identity/{auth,urls}.test.ts",
      "test/settings/*.test.ts",
      "test/property/inputs.test.ts",
      "test/report/{html,markdown-json,model,progress,terminal}.test.ts",
      "test/proxy/select.test.ts",
      "test/install/{readme-blocks,lockfile}.test.ts",
      "test/preview/*.test.ts",
      "test/plugin/{values,examples}.test.ts",
    ],
    // runs the built CLI 36 times (about 30 s): in `npm test`, not in the quick unit run
    exclude: [...configDefaults.exclude, "test/budget/foreign-replay.test.ts"],
    testTimeout: 10000,
  },
});
