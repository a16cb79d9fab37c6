#!/usr/bin/env node
/**
 * Makes docs/report.png: runs the demo (the embedded emulator, offline) into a temporary HTML file and
 * takes a full-page screenshot of it in Debian's headless Chromium (playwright-core; no browser is
 * downloaded). Run with `npm run screenshot` (it builds first).
 */

const { mkdtempSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join, resolve } = require("node:path");

const { CHROMIUM_ARGS: ARGS, CHROMIUM_PATH: CHROMIUM } = require("./chromium");

async function main() {
  const out = resolve(__dirname, "..", "docs", "report.png");
  const dir = mkdtempSync(join(tmpdir(), "costgate-screenshot-"));
  const html = join(dir, "costgate-report.html");
  try {
    const { demoCommand } = require("../dist/cli/commands/demo.js");
    await demoCommand(() => {}, { html });
    const { chromium } = require("playwright-core");
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1 });
      await page.goto(`file://${html}`);
      // The top of the report: the figures, the charts and the verdicts; the table of days is left out.
      const rules = await page.locator("section.rules").boundingBox();
      const height = rules ? Math.ceil(rules.y + rules.height + 24) : 1200;
      await page.setViewportSize({ width: 1100, height });
      await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1100, height } });
    } finally {
      await browser.close();
    }
    process.stdout.write(`screenshot: wrote ${out}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`screenshot: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
