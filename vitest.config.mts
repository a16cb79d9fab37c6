import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["test/keystone/global-setup.ts"],
    include: ["test/**/*.test.ts"],
    testTimeout: 30000,
    hookTimeout: 180000,
  },
});
