/**
 * Amounts and days from a hostile billing endpoint: every reader (the CLI, the data sources, the pack)
 * refuses what it cannot read within bounds — exit 3 / a ResponseError / a violation naming the field,
 * the day and the value — in bounded time, and never expands "1e300000000" into digits. Refunds and
 * days answered twice are kept and shown.
 */
import { afterEach, describe, expect, it } from "vitest";
import { isResponseError } from "../../provider/errors";
import { getProjectBalance, getProjectConsumption } from "../../provider/resources/billing";
import { type PolicyPackProcess, startPolicyPack } from "../helpers/analyzer";
import { runCli } from "../helpers/cli";
import {
  balanceAnswer,
  consumptionAnswer,
  daysAgo,
  type HostileAnswer,
  steadyItems,
  useHostileServer,
  wellFormed,
} from "./server";

let pack: PolicyPackProcess | undefined;
const TOKEN = "hostile-amounts-token-0123456789";
const hostile = useHostileServer(TOKEN);

afterEach(() => {
  pack?.close();
  pack = undefined;
});

const env = () => hostile.billingEnv();

/** The day of the poisoned item: items[3] of 30 days before today. */
const BAD_DAY = daysAgo(27);

/** A consumption answer whose items[3] carries `amount` as its totalAmount; `raw` is spliced in as JSON text. */
function poisonedConsumption(amount: unknown, raw?: string): HostileAnswer {
  const items = steadyItems(30);
  if (raw === undefined) {
    items[3] = { day: BAD_DAY, totalAmount: amount };
    return consumptionAnswer(items);
  }
  items[3] = { day: BAD_DAY, totalAmount: "__RAW__" };
  const text = JSON.stringify(consumptionAnswer(items).body).replace('"__RAW__"', raw);
  return { headers: { "content-type": "application/json" }, body: text };
}

/** Answers `consumption` for the consumption query and a sane balance for the balance query. */
function serve(consumption: HostileAnswer, balance: HostileAnswer = balanceAnswer()) {
  hostile.server.answer = (req) =>
    req.operation === "consumption" ? consumption : req.operation === "balance" ? balance : wellFormed(req);
}

/** Values an amount must never be read as. [what, value as sent, raw JSON text or undefined, reason] */
const HOSTILE: [string, unknown, string | undefined, RegExp][] = [
  ["an exponent of 300 million", "1e300000000", undefined, /beyond ±1e12/],
  ["1e400 as text", "1e400", undefined, /beyond ±1e12/],
  ["-1e400 as text", "-1e400", undefined, /beyond ±1e12/],
  ["1e400 as a JSON number (Infinity)", undefined, "1e400", /not a finite number/],
  ["-1e400 as a JSON number", undefined, "-1e400", /not a finite number/],
  ["1e308 as a JSON number", 1e308, undefined, /beyond ±1e12/],
  ["NaN", "NaN", undefined, /not a decimal number/],
  ["Infinity", "Infinity", undefined, /not a decimal number/],
  ["hexadecimal", "0x10", undefined, /not a decimal number/],
  ["10,000 digits", "9".repeat(10_000), undefined, /longer than 64 characters/],
  ["10,000 decimals", `0.${"1".repeat(10_000)}`, undefined, /longer than 64 characters/],
  ["21 decimals", "0.000000000000000000001", undefined, /more than 20 decimals/],
  ["a cent above a trillion", "1000000000000.01", undefined, /beyond ±1e12/],
  ["an object", { value: 1 }, undefined, /not a number or a numeric string/],
];

const AMOUNT_ERROR = new RegExp(
  `the billing endpoint answered an amount costgate cannot read: items\\[3\\]\\.totalAmount of ${BAD_DAY} is `,
);

describe("the data sources refuse an amount they cannot read, fast and in bounded memory", () => {
  let project = 9100;
  it.each(HOSTILE)("consumption: %s", async (_what, value, raw, reason) => {
    serve(poisonedConsumption(value, raw));
    const heap = process.memoryUsage().heapUsed;
    const started = performance.now();
    const e = await getProjectConsumption({
      projectId: ++project,
      from: daysAgo(30),
      billingUrl: hostile.server.url,
      billingToken: TOKEN,
    }).catch((err: unknown) => err);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(64 * 1024 * 1024);
    expect(isResponseError(e)).toBe(true);
    const message = (e as Error).message;
    expect(message).toMatch(AMOUNT_ERROR);
    expect(message).toMatch(reason);
    expect(message).toMatch(/costgate reads amounts up to ±1e12 with at most 20 decimals/);
    // the value is quoted bounded: never the 10,000 characters
    expect(message.length).toBeLessThan(400);
    expect(message).not.toContain(TOKEN);
  });

  it.each(HOSTILE)("balance: %s", async (_what, value, raw, reason) => {
    const answer: HostileAnswer =
      raw === undefined
        ? balanceAnswer(value)
        : {
            headers: { "content-type": "application/json" },
            body: JSON.stringify(balanceAnswer("__RAW__").body).replace('"__RAW__"', raw),
          };
    serve(consumptionAnswer(steadyItems(30)), answer);
    const started = performance.now();
    const e = await getProjectBalance({
      projectId: ++project,
      billingUrl: hostile.server.url,
      billingToken: TOKEN,
    }).catch((err: unknown) => err);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(isResponseError(e)).toBe(true);
    expect((e as Error).message).toMatch(
      new RegExp(
        `the billing endpoint answered an amount costgate cannot read: getSubscriptionBalance\\.balance of project ${project} is `,
      ),
    );
    expect((e as Error).message).toMatch(reason);
  });

  it("quotes a value without its control characters and cut to 40 characters", async () => {
    serve(poisonedConsumption(`\u001b[31m1e3000\u0000\u202e${"9".repeat(50)}`));
    const e = await getProjectConsumption({
      projectId: 9001,
      from: daysAgo(30),
      billingUrl: hostile.server.url,
      billingToken: TOKEN,
    }).catch((err: unknown) => err);
    const message = (e as Error).message;
    expect(message).toMatch(AMOUNT_ERROR);
    expect(message).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    expect(message).toContain('is "[31m1e3000999'); // the ESC is gone, the rest kept
    expect(message).toContain("… (63 characters)");
  });

  it.each([
    ["a megabyte of text", "2".repeat(1_000_000)],
    ["no such date", "2026-02-30"],
    ["a number beyond any Date", 1e300],
    ["a year beyond 9999", "+275760-09-13"],
    ["an object", { day: 1 }],
  ])("a day costgate cannot read is refused, naming the item: %s", async (_what, day) => {
    const items = steadyItems(30);
    items[5] = { day, totalAmount: "1.00" };
    serve(consumptionAnswer(items));
    const started = performance.now();
    const e = await getProjectConsumption({
      projectId: ++project,
      from: daysAgo(30),
      billingUrl: hostile.server.url,
      billingToken: TOKEN,
    }).catch((err: unknown) => err);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(isResponseError(e)).toBe(true);
    expect((e as Error).message).toMatch(
      /^the billing endpoint answered a day costgate cannot read: items\[5\]\.day is /,
    );
    expect((e as Error).message.length).toBeLessThan(400);
  });

  it("keeps refunds (negative days) and sums a day answered twice, and says so", async () => {
    const items = steadyItems(30);
    items[10] = { day: items[10]?.day, totalAmount: "-250.00" };
    items.push({ day: items[20]?.day, totalAmount: "40.00" });
    serve(consumptionAnswer(items));
    const usage = await getProjectConsumption({
      projectId: 9002,
      from: daysAgo(30),
      billingUrl: hostile.server.url,
      billingToken: TOKEN,
    });
    expect(usage.refundDays).toEqual([items[10]?.day]);
    expect(usage.mergedDays).toEqual([{ day: items[20]?.day, items: 2 }]);
    // 28 days of 100, one of -250, one of 100 + 40: net
    expect(usage.total.amount).toBe(2800 - 250 + 140);
    expect(usage.items.find((i) => i.day === items[20]?.day)?.totalAmount).toBe(140);
  });
});

describe("the costgate command exits 3 naming the field, the day and the value", () => {
  const timed = async (args: string[]) => {
    const started = performance.now();
    const r = await runCli(args, env());
    return { ...r, ms: performance.now() - started };
  };

  it.each([
    ["usage", "--project-id", "777", "--from", daysAgo(30)],
    ["check", "--project-id", "777", "--min-balance", "1"],
    ["report", "--project-id", "777"],
    ["report", "--project-id", "777", "--json"],
  ])("%s %s %s %s %s on 1e300000000 in a consumption item", async (...args) => {
    serve(poisonedConsumption("1e300000000"));
    const r = await timed(args);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(AMOUNT_ERROR);
    expect(r.stderr).toMatch(/"1e300000000" \(beyond ±1e12/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.ms).toBeLessThan(8000);
  });

  it.each([
    ["1e400", "1e400"],
    ["NaN", "NaN"],
    ["0x10", "0x10"],
    ["10,000 digits", "9".repeat(10_000)],
  ])("usage on %s", async (_what, value) => {
    serve(poisonedConsumption(value));
    const r = await timed(["usage", "--project-id", "777", "--from", daysAgo(30)]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(AMOUNT_ERROR);
    expect(r.stdout).toBe("");
  });

  it.each([["1e400"], ["-1e400"], ["1e300000000"]])("balance on %s, also with --json", async (value) => {
    serve(consumptionAnswer(steadyItems(30)), balanceAnswer(value));
    for (const extra of [[], ["--json"]]) {
      const r = await timed(["balance", "--project-id", "777", ...extra]);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(
        /an amount costgate cannot read: getSubscriptionBalance\.balance of project 777/,
      );
      expect(r.stdout).not.toMatch(/∞|null|Infinity/);
    }
  });

  it("report shows refund days and days answered twice", async () => {
    const items = steadyItems(30);
    items[10] = { day: items[10]?.day, totalAmount: "-250.00" };
    items.push({ day: items[20]?.day, totalAmount: "40.00" });
    serve(consumptionAnswer(items));
    const text = await runCli(["report", "--project-id", "777", "--from", daysAgo(30)], env());
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`1 refund (negative, kept in the total): ${items[10]?.day}`);
    expect(text.stdout).toContain(`answered twice, summed: ${items[20]?.day}`);
    const json = await runCli(["report", "--project-id", "777", "--from", daysAgo(30), "--json"], env());
    const body = JSON.parse(json.stdout);
    expect(body.consumption?.refundDays ?? body.refundDays).toEqual([items[10]?.day]);
  });

  it("check says so beside its verdict, in text and --json", async () => {
    const items = steadyItems(30);
    items[10] = { day: items[10]?.day, totalAmount: "-250.00" };
    items.push({ day: items[20]?.day, totalAmount: "40.00" });
    serve(consumptionAnswer(items));
    const text = await runCli(["check", "--project-id", "777", "--min-balance", "1"], env());
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`note: 1 refund (negative, kept in the total): ${items[10]?.day}`);
    expect(text.stdout).toContain(`answered twice, summed: ${items[20]?.day}`);
    const json = await runCli(["check", "--project-id", "777", "--min-balance", "1", "--json"], env());
    expect(JSON.parse(json.stdout).projects[0].notes).toHaveLength(2);
  });
});

describe("the budget pack reports an unreadable amount as a violation, never a stack trace", () => {
  it("min-balance fails closed with the reader's message", async () => {
    serve(poisonedConsumption("1e300000000"));
    pack = await startPolicyPack(env());
    await pack.configure({
      "min-balance": { enforcementLevel: "mandatory", projectId: 777, minBalance: 1 },
      "monthly-budget": { enforcementLevel: "disabled" },
      "min-runway-days": { enforcementLevel: "disabled" },
      "daily-spike": { enforcementLevel: "disabled" },
    });
    const started = performance.now();
    const ds = await pack.analyzeStack([{ type: "pulumi:pulumi:Stack", name: "app", props: {} }]);
    expect(performance.now() - started).toBeLessThan(8000);
    const mine = ds.find((d) => d.policyName === "min-balance");
    expect(mine?.enforcementLevel).toBe("mandatory");
    expect(mine?.message).toMatch(/^Project 777 could not be checked because billing could not be read/);
    expect(mine?.message).toMatch(AMOUNT_ERROR);
    expect(ds.find((d) => d.policyName === "billing-available")?.message).toMatch(AMOUNT_ERROR);
    for (const d of ds) expect(d.message).not.toMatch(/\n\s+at /);
    expect(pack.output()).not.toMatch(/\n\s+at |RangeError|invalid size/);
  });
});
