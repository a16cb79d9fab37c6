/**
 * The notice that a command talks to costgate's emulator, not a real cloud: one line on stderr per
 * address, when an answer carries the emulator's marker header. stdout stays the command's output
 * (`export OS_TOKEN=$(costgate token)` still works).
 */
import { onEmulatorAnswer } from "../provider/http/send";

/** noticeEmulator makes every later answer from an emulator say so once on stderr; `false` stops it. */
export function noticeEmulator(
  on = true,
  write: (line: string) => void = (l) => process.stderr.write(l),
): void {
  if (!on) {
    onEmulatorAnswer(undefined);
    return;
  }
  const told = new Set<string>();
  onEmulatorAnswer((origin) => {
    if (told.has(origin)) return;
    told.add(origin);
    write(`costgate: talking to the costgate emulator at ${origin} (not a real cloud)\n`);
  });
}
