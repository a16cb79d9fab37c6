// Debian's headless Chromium as scripts/screenshot.js and test/report/chromium.test.ts launch it
// (playwright-core; no browser is downloaded): where it is, and the flags that keep it offline.
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

module.exports = { CHROMIUM_PATH, CHROMIUM_ARGS };
