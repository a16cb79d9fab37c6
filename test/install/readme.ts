/**
 * The README as users read it: its TypeScript blocks (typechecked in a fresh install, so the README
 * cannot drift from the package) and its links (they must work on the registry's page too).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

export const README = resolve(__dirname, "../../README.md");

/** tsBlocks returns the body of every ```ts / ```typescript block, in order. */
export function tsBlocks(markdown = readFileSync(README, "utf8")): string[] {
  const blocks: string[] = [];
  const fence = /^```(?:ts|typescript)\s*\n([\s\S]*?)^```\s*$/gm;
  for (let m = fence.exec(markdown); m; m = fence.exec(markdown)) blocks.push(m[1] ?? "");
  return blocks;
}

/** links returns the targets of the Markdown links and images, outside code blocks. */
export function links(markdown = readFileSync(README, "utf8")): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```\s*$/gm, "");
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)[^)]*\)/g)].map((m) => m[1] ?? "");
}
