/**
 * The HTML report in a real headless Chromium (Debian's, driven by playwright-core; no browser is
 * downloaded): it loads with no console error and no request but the file itself, draws one bar per
 * day, and a screenshot and a PDF are made. Skipped, with the reason printed, when Chromium is not
 * installed — except with CI=true, where it must run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtml } from "../../cli/report/html";
import { happyReport } from "./fixtures";

// the same browser and flags as scripts/screenshot.js
const { CHROMIUM_ARGS: ARGS, CHROMIUM_PATH: CHROMIUM } = require("../../scripts/chromium.js") as {
  CHROMIUM_PATH: string;
  CHROMIUM_ARGS: string[];
};
const missing = !existsSync(CHROMIUM) && process.env["CI"] !== "true";
if (missing) {
  console.warn(
    `test/report/chromium.test.ts skipped: ${CHROMIUM} is not installed (apt-get install -y chromium; with CI=true this test must run)`,
  );
}

describe.skipIf(missing)("the HTML report in headless Chromium", () => {
  let browser: Browser;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    dir = mkdtempSync(join(tmpdir(), "costgate-report-test-"));
    file = join(dir, "report.html");
    writeFileSync(file, renderHtml(happyReport()));
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("loads with no console error and no request but the file, draws one bar per day", async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });

    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(file).href]);
    expect(await page.locator("svg.spend rect[data-day].bar").count()).toBe(60);
    expect(await page.locator("svg.spend rect.forecast").count()).toBe(8);
    expect(await page.locator("svg.spend path.allowance").count()).toBe(1);
    expect(await page.locator("table.findings tbody tr").count()).toBe(4);
    const box = await page.locator("svg.spend").boundingBox();
    expect(box?.width).toBeGreaterThan(600);

    const shot = join(tmpdir(), "costgate-report-test.png");
    await page.screenshot({ path: shot, fullPage: true });
    expect(readFileSync(shot).subarray(1, 4).toString()).toBe("PNG");
    console.log(`screenshot of the HTML report: ${shot}`);
    await page.close();
  });

  it("prints: a PDF with the chart and the verdicts", async () => {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    await page.emulateMedia({ media: "print" });
    expect(await page.locator("body").evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(
      "rgb(255, 255, 255)",
    );
    const pdf = await page.pdf({ format: "A4" });
    expect(pdf.subarray(0, 4).toString()).toBe("%PDF");
    await page.close();
  });
});
