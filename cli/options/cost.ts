/**
 * The typed options of `costgate cost`: the rate card (--rate-card, else rateCard in --config), the gates
 * on the change, the budget targets after it, the outputs. Everything is checked here, before the preview
 * is read and before any request.
 */

import { configuredGates } from "../../provider/budget/config";
import type { Target } from "../../provider/budget/targets";
import type { DataFileLimit } from "../../provider/data-file";
import type { ChangeGates } from "../../provider/preview/gates";
import { parseRateCard, type RateCard, readRateCard } from "../../provider/pricing/rate-card";
import { UsageError } from "../errors";
import { inputLimitFrom } from "../files";
import { summaryPathFrom } from "../summary";
import { type EndpointOptions, endpointOptions } from "./billing";
import { amount, type TargetOptions, targetOptions } from "./gate";
import { type Flags, text } from "./parse";

/** `costgate cost`'s options. */
export interface CostOptions extends Pick<TargetOptions, "product"> {
  now: Date;
  /** The cap of every file or stream read (--max-input-size). */
  limit: DataFileLimit;
  /** --preview: a file, or "-" for standard input; checked when it is read. */
  preview?: string;
  card: RateCard;
  /** The gates on the change itself. */
  gates: ChangeGates;
  /** With --markdown / --summary: write nothing when the monthly change is smaller. */
  quietBelow?: number;
  /** The project this stack bills to, with its thresholds, when one is named: the budget rules after the change. */
  target?: Target;
  /** How to reach billing, when a target is named. */
  endpoint?: EndpointOptions;
  format: "terminal" | "json" | "markdown";
  summary?: string;
}

/** costOptions reads every option of `costgate cost` before the preview is read. */
export function costOptions(o: Flags, now = new Date()): CostOptions {
  const limit = inputLimitFrom(o);
  const summary = summaryPathFrom(text(o, "summary"));
  // the budget rules after the change, when a project is named (flags, the config file or env)
  const { file, product, targets, flags } = targetOptions(o, { one: "this stack bills to", optional: true });
  const cardPath = text(o, "rateCard");
  let card: RateCard;
  if (cardPath !== undefined) card = readRateCard(cardPath, limit);
  else if (file?.rateCard) card = parseRateCard(file.rateCard, `${text(o, "config")}: rateCard`);
  else
    throw new UsageError(
      "--rate-card: missing; give a rate card file (JSON or YAML, see costgate/rate-card.schema.json) or rateCard in --config",
    );
  const currency = text(o, "currency")?.trim();
  if (currency) card = { ...card, currency };
  const given = (key: string, flag: string) => (o[key] === undefined ? undefined : amount(o[key], flag));
  const gates: ChangeGates = {
    maxMonthlyIncrease: given("maxMonthlyIncrease", "--max-monthly-increase"),
    maxIncreasePercent: given("maxIncreasePercent", "--max-increase-percent"),
    failOnUnpriced: o["failOnUnpriced"] === true,
  };
  const quietBelow = given("quietBelow", "--quiet-below");
  const target = targets[0];
  if (!target && configuredGates(flags).length > 0) {
    throw new UsageError(
      "--project-id: missing; the budget rules after the change need the project this stack bills to (--project-id or COSTGATE_PROJECT_ID)",
    );
  }
  const preview = text(o, "preview");
  return {
    now,
    limit,
    ...(preview === undefined ? {} : { preview }),
    card,
    gates,
    ...(quietBelow === undefined ? {} : { quietBelow }),
    product,
    ...(target ? { target, endpoint: endpointOptions(o) } : {}),
    format: o["json"] ? "json" : o["markdown"] ? "markdown" : "terminal",
    ...(summary ? { summary } : {}),
  };
}
