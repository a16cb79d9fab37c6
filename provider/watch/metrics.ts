/**
 * The watch's Prometheus metrics, declared once with their labels and help, set from one place after
 * each read ({@link WatchMetrics.record}); `/metrics` reads only what is set and never waits on the API.
 * prom-client is loaded by this module alone: only `costgate watch` imports it.
 */
import { Counter, collectDefaultMetrics, Gauge, Registry } from "prom-client";
import { RULE_NAMES } from "../budget/config";
import type { Evaluation, QuantileFigures } from "../budget/types";

const QUANTILES: readonly (keyof QuantileFigures)[] = ["p50", "p80", "p90"];
const QUANTILE_LABEL: Record<keyof QuantileFigures, string> = { p50: "0.5", p80: "0.8", p90: "0.9" };

/**
 * How the runway is exposed: in days (`costgate_runway_days`, `costgate_min_runway_days`, the names the
 * dashboards and alert rules of examples/watch use), or in Prometheus' base unit (`*_runway_seconds`,
 * which `promtool check metrics` lints clean).
 */
export type RunwayUnit = "days" | "seconds";

/** The thresholds exported, by the figure of the rule that judges them. */
function thresholds(unit: RunwayUnit) {
  return [
    ["costgate_monthly_budget", "monthlyBudget", "The monthly budget configured for the project."],
    ["costgate_min_balance", "minBalance", "The lowest balance configured for the project."],
    [
      `costgate_min_runway_${unit}`,
      "minRunwayDays",
      `The shortest runway configured for the project, in ${unit}.`,
    ],
  ] as const;
}

/** prom-client's default gauges whose names end in _total (promtool: "non-counter metrics should not have _total"). */
const NOT_COUNTERS = [
  "nodejs_active_handles_total",
  "nodejs_active_requests_total",
  "nodejs_active_resources_total",
];

/**
 * quantileFamily is a metric of type summary whose `quantile` series are set, not observed: the forecast
 * model's quantiles. It answers `set` and `remove` as a Gauge does.
 */
function quantileFamily(registry: Registry, name: string, help: string): Gauge<string> {
  const values = new Map<string, { labels: Record<string, string>; value: number }>();
  const keyOf = (labels: Record<string, string>) => JSON.stringify(Object.entries(labels).sort());
  const family = {
    name,
    help,
    type: "summary",
    aggregator: "omit",
    set: (labels: Record<string, string>, value: number) => values.set(keyOf(labels), { labels, value }),
    remove: (labels: Record<string, string>) => values.delete(keyOf(labels)),
    get: async () => ({ name, help, type: "summary", aggregator: "omit", values: [...values.values()] }),
    reset: () => values.clear(),
  };
  registry.registerMetric(family as unknown as Gauge<string>);
  return family as unknown as Gauge<string>;
}

/** What a project's thresholds are, as the metrics read them. */
export interface ProjectThresholds {
  monthlyBudget?: number;
  minBalance?: number;
  minRunwayDays?: number;
}

/** WatchMetrics is the watch's registry and the metrics in it. */
export class WatchMetrics {
  readonly registry = new Registry();
  private readonly g: Record<string, Gauge<string>> = {};
  private readonly readErrors: Counter<string>;
  private readonly lastSuccess = new Map<string, number>();
  private readonly runway: string;
  private readonly runwayScale: number;
  private readonly thresholds: ReturnType<typeof thresholds>;

  constructor(clock: () => number = Date.now, unit: RunwayUnit = "days") {
    this.runway = `costgate_runway_${unit}`;
    this.runwayScale = unit === "seconds" ? 86_400 : 1;
    this.thresholds = thresholds(unit);
    const gauge = (name: string, help: string, labels: string[] = []) => {
      this.g[name] = new Gauge({
        name,
        help,
        labelNames: ["project", "product", ...labels],
        registers: [this.registry],
      });
    };
    gauge("costgate_balance", "The project's balance, as the billing API last gave it.");
    gauge("costgate_bonuses", "The project's bonuses, as the billing API last gave them.");
    gauge("costgate_month_to_date", "Charges from the 1st of this UTC month to now.");
    // quantiles of the model's forecast distribution: a summary's quantiles, set rather than observed
    this.g["costgate_forecast_month_end"] = quantileFamily(
      this.registry,
      "costgate_forecast_month_end",
      "Month-to-date spend plus the forecast model's spend to the month's end, by quantile.",
    );
    this.g[this.runway] = quantileFamily(
      this.registry,
      this.runway,
      `How long the balance lasts at the forecast model's spend, in ${unit}, by quantile (absent when nothing is spent).`,
    );
    for (const [name, , help] of this.thresholds) gauge(name, help);
    gauge("costgate_rule_ok", "1 when the budget rule passes, 0 when it fails; absent when not judged.", [
      "rule",
    ]);
    gauge(
      "costgate_last_success_timestamp_seconds",
      "When the project was last read and judged, Unix seconds.",
    );
    const lastSuccess = this.lastSuccess;
    new Gauge({
      name: "costgate_data_age_seconds",
      help: "Seconds since the project was last read and judged: the age of the figures served.",
      labelNames: ["project", "product"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [key, at] of lastSuccess) {
          const [project = "", product = ""] = key.split("\u0000");
          this.set({ project, product }, Math.max(0, (clock() - at) / 1000));
        }
      },
    });
    this.readErrors = new Counter({
      name: "costgate_read_errors_total",
      help: "Reads of the project's billing data that failed.",
      labelNames: ["project", "product"],
      registers: [this.registry],
    });
    collectDefaultMetrics({ register: this.registry });
    // gauges named *_total read as counters to promtool's lint; the process metrics stay
    for (const name of NOT_COUNTERS) this.registry.removeSingleMetric(name);
  }

  /** declare makes a project's counter appear at 0 before its first failure. */
  declare(project: number, product: string): void {
    this.readErrors.inc({ project: String(project), product }, 0);
  }

  /** record sets a project's figures, thresholds and rule results from its evaluation. */
  record(project: number, product: string, e: Evaluation, t: ProjectThresholds, at: Date): void {
    const labels = { project: String(project), product };
    const f = e.figures;
    this.set("costgate_balance", labels, f.balance);
    this.set("costgate_bonuses", labels, f.bonuses);
    this.set("costgate_month_to_date", labels, f.monthToDate);
    for (const q of QUANTILES) {
      const ql = { ...labels, quantile: QUANTILE_LABEL[q] };
      this.set("costgate_forecast_month_end", ql, f.forecast.monthEnd?.[q]);
      this.set(this.runway, ql, this.inRunwayUnit(f.forecast.runwayDays?.[q]));
    }
    for (const [name, key] of this.thresholds)
      this.set(name, labels, key === "minRunwayDays" ? this.inRunwayUnit(t[key]) : t[key]);
    const judged = new Map(e.findings.map((x) => [x.rule, x.status]));
    for (const rule of RULE_NAMES) {
      const status = judged.get(rule);
      this.set(
        "costgate_rule_ok",
        { ...labels, rule },
        status === "pass" ? 1 : status === "fail" ? 0 : undefined,
      );
    }
    this.set("costgate_last_success_timestamp_seconds", labels, at.getTime() / 1000);
    this.lastSuccess.set(`${project}\u0000${product}`, at.getTime());
  }

  /** inRunwayUnit converts days to the unit the runway is exposed in. */
  private inRunwayUnit(days: number | null | undefined): number | null | undefined {
    return days === undefined || days === null ? days : days * this.runwayScale;
  }

  /** readFailed counts a failed read; the project's last figures stay as they were. */
  readFailed(project: number, product: string): void {
    this.readErrors.inc({ project: String(project), product });
  }

  /** set sets a gauge, or removes the series when there is no value (a rule not judged, no runway). */
  private set(name: string, labels: Record<string, string>, value: number | null | undefined): void {
    const g = this.g[name] as Gauge<string>;
    if (value === undefined || value === null || !Number.isFinite(value)) g.remove(labels);
    else g.set(labels, value);
  }

  /** exposition is the text `/metrics` serves, and its content type. */
  async exposition(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
