/**
 * Progress on stderr while a report is read, on a terminal only (cli-progress).
 */
import { type Options, Presets, SingleBar } from "cli-progress";

/** Progress is a bar that follows `done` of `total` steps. */
export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/** A stream a bar can draw on. */
export type ProgressStream = NodeJS.WritableStream & { isTTY?: boolean };

/**
 * startProgress draws a bar on `stream` (stderr by default) labelled `label`, counting `unit`
 * (requests, projects); `undefined` when the stream is not a terminal, so nothing is written to a
 * pipe or a CI log. The bar appears on the first update and is cleared by stop().
 *
 * @example
 * const bar = startProgress("charges", "requests");
 * await getConsumption(ep, { ...q, onWindow: (d, t) => bar?.update(d, t) });
 * bar?.stop();
 */
export function startProgress(
  label: string,
  unit: string,
  stream: ProgressStream = process.stderr,
): Progress | undefined {
  if (!stream.isTTY) return undefined;
  const options: Options = {
    stream,
    format: `${label} [{bar}] {value}/{total} ${unit}`,
    barsize: 30,
    hideCursor: true,
    clearOnComplete: true,
    gracefulExit: true,
  };
  const bar = new SingleBar(options, Presets.shades_classic);
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, done);
        started = true;
        return;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
