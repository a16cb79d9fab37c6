/**
 * CPU time bounds for tests of pure code: a bound on the process's own CPU time (user + system), not wall time, so
 * a machine loaded by other processes cannot fail it (wall-clock bounds failed with three helpers on two cores).
 */

/** cpuStart marks the start of a span of this process's CPU time. */
export function cpuStart(): NodeJS.CpuUsage {
  return process.cpuUsage();
}

/** cpuMs is the CPU time (user + system) this process spent since `start`, in milliseconds. */
export function cpuMs(start: NodeJS.CpuUsage): number {
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / 1000;
}
