/**
 * `costgate/budget`: the budget rules over a balance and daily charges (pure: no I/O, an injected
 * clock), and `checkProject` / `fetchProjectData` / `evaluateData`, which read billing and run them.
 *
 * @example
 * const { evaluate } = require("costgate/budget");
 * const evaluation = evaluate({ balance, consumption, now: new Date() }, { minBalance: 5000 });
 */

export { parseProjectId, parseProjectIds } from "../billing/project-id";
export * from "../budget";
export * from "../budget/config-file";
export { formatMoney, formatNumber } from "../budget/money";
export {
  resolveProduct,
  resolveProjects,
  resolveTargets,
  type Target,
  type Targets,
  type TargetsInput,
} from "../budget/targets";
export {
  checkAsOf,
  checkPeriodStart,
  checkProject,
  evaluateData,
  fetchProjectData,
  type ProjectCheck,
  parseAsOf,
} from "../check";
export * from "../errors";
export * from "../preview";
export * from "../pricing";
export { type CleanOptions, cleanText, rememberSecret, stripControls } from "../text";
