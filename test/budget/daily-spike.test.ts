import { describe, expect, it } from "vitest";
import type { BudgetConfig, DailyCharge, Status } from "../../provider/budget";
import { daysBefore, finding, happy } from "./fixtures";

type Case = [string, DailyCharge[], BudgetConfig, Status, string];

// The last full day is 2026-11-21; `daysBefore(TODAY, [...prior, yesterday])`.
const TODAY = "2026-11-22";
const now = new Date(`${TODAY}T06:00:00Z`);
const steady = (yesterday: number | null, prior = 14, amount = 1577) =>
  daysBefore(TODAY, [...Array(prior).fill(amount), yesterday]);

describe("daily-spike", () => {
  const cases: Case[] = [
    [
      "the worked example",
      steady(4100),
      {},
      "fail",
      "Project 4242 spent 4,100.00 on 2026-11-21, 2.6 times the 14-day median of 1,577.00; the policy flags 2 times.",
    ],
    [
      "no spike",
      steady(1600),
      {},
      "pass",
      "Project 4242 spent 1,600.00 on 2026-11-21, 1.0 times the 14-day median of 1,577.00; the policy flags days above 2 times the median.",
    ],
    [
      "exactly the factor is not a spike",
      steady(3154),
      {},
      "pass",
      "Project 4242 spent 3,154.00 on 2026-11-21, 2.0 times the 14-day median of 1,577.00; the policy flags days above 2 times the median.",
    ],
    [
      "spikeFactor 3",
      steady(4100),
      { spikeFactor: 3 },
      "pass",
      "Project 4242 spent 4,100.00 on 2026-11-21, 2.6 times the 14-day median of 1,577.00; the policy flags days above 3 times the median.",
    ],
    [
      "the window only looks back spikeWindowDays",
      [...daysBefore("2026-11-14", Array(7).fill(10000)), ...steady(4100, 7)],
      { spikeWindowDays: 7 },
      "fail",
      "Project 4242 spent 4,100.00 on 2026-11-21, 2.6 times the 7-day median of 1,577.00; the policy flags 2 times.",
    ],
    [
      "gaps count as zero in the median",
      daysBefore(TODAY, [100, null, null, 100, null, 50]),
      {},
      "fail",
      "Project 4242 spent 50.00 on 2026-11-21 against the 5-day median of 0.00; the policy flags 2 times.",
    ],
    [
      "an even number of days takes the middle mean",
      daysBefore(TODAY, [400, 100, 300, 200, 600]),
      {},
      "fail",
      "Project 4242 spent 600.00 on 2026-11-21, 2.4 times the 4-day median of 250.00; the policy flags 2 times.",
    ],
    [
      "a missing last full day is no spike",
      steady(null),
      {},
      "pass",
      "Project 4242 spent 0.00 on 2026-11-21, 0.0 times the 14-day median of 1,577.00; the policy flags days above 2 times the median.",
    ],
    [
      "exactly 3 prior days is enough",
      steady(4100, 3),
      {},
      "fail",
      "Project 4242 spent 4,100.00 on 2026-11-21, 2.6 times the 3-day median of 1,577.00; the policy flags 2 times.",
    ],
    [
      "2 prior days is not",
      steady(4100, 2),
      {},
      "not-judged",
      "The daily-spike rule is not judged for project 4242: it has 2 days of charges before 2026-11-21 and needs at least 3.",
    ],
    [
      "no consumption yet",
      [],
      {},
      "not-judged",
      "The daily-spike rule is not judged for project 4242: it has 0 days of charges before 2026-11-21 and needs at least 3.",
    ],
  ];

  it.each(cases)("%s", (_name, consumption, config, status, message) => {
    const f = finding("daily-spike", happy({ consumption, now }), config);
    expect({ level: f.level, status: f.status, message: f.message }).toEqual({
      level: "advisory",
      status,
      message,
    });
  });

  it("reports the figures, today's partial day left out", () => {
    const consumption = [...steady(4100), { day: TODAY, totalAmount: 99999, totalBonuses: 0 }];
    const f = finding("daily-spike", happy({ consumption, now }), {});
    expect(f.figures).toEqual({
      day: "2026-11-21",
      amount: 4100,
      medianDays: 14,
      median: 1577,
      ratio: 2.6,
      factor: 2,
      threshold: 3154,
    });
  });

  it("has a null ratio against a zero median", () => {
    const f = finding("daily-spike", happy({ consumption: steady(50, 5, 0), now }), {});
    expect(f.figures).toMatchObject({ median: 0, ratio: null, threshold: 0 });
  });
});
