/** Yes/no settings read from the environment (`OS_INSECURE`), strictly. */
import { ConfigError } from "./errors";

/** truthy reads a yes/no variable strictly: `OS_INSECURE=maybe` is an error, not false. */
export function truthy(v: string, name = "OS_INSECURE"): boolean {
  const t = v.trim().toLowerCase();
  if (t === "") return false;
  if (["1", "true", "yes", "on"].includes(t)) return true;
  if (["0", "false", "no", "off"].includes(t)) return false;
  throw new ConfigError(name, `"${v}" is not true or false; use true or false (or 1/0, yes/no)`);
}
