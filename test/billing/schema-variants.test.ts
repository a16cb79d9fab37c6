/**
 * The spec does not show the billing schema's variable types. A server whose schema names other
 * types (Int for the project id, a DateTime scalar for periods) still answers costgate's documents:
 * the client re-declares its variables from the server's own validation errors, once.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { buildSchema, graphql } from "graphql";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getBalance, getConsumption } from "../../provider/billing/client";

const schema = buildSchema(`
  scalar DateTime
  type Query { bill: Bill }
  type Bill {
    getSubscriptionBalance(externalSubscriptionId: Int!, productId: Int!): Balance
    reportSubscriptionConsuming(filter: Filter!): Report
  }
  input Filter { periodFrom: DateTime! periodTo: DateTime! externalSubscriptionId: Int! productId: Int! }
  type Balance { balance: String bonuses: Float }
  type Report { items: [Item] }
  type Item { day: String totalAmount: String totalBonuses: Float }
`);

const root = {
  bill: {
    getSubscriptionBalance: () => ({ balance: "1000.10", bonuses: 5 }),
    reportSubscriptionConsuming: () => ({
      items: [
        { day: "2026-11-02T00:00:00+03:00", totalAmount: "0.20", totalBonuses: null },
        { day: "2026-11-01T00:00:00+03:00", totalAmount: "0.10", totalBonuses: 0.01 },
      ],
    }),
  },
};

let server: Server;
let url = "";
const queries: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", async () => {
      const { query, variables } = JSON.parse(body);
      queries.push(query);
      const result = await graphql({ schema, source: query, rootValue: root, variableValues: variables });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(result));
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server?.close();
});

it("re-declares the project id as Int! and reads a string balance", async () => {
  queries.length = 0;
  const b = await getBalance({ baseUrl: url, token: "t" }, { projectId: 4242 });
  expect(b.balance).toBe(1000.1);
  expect(queries).toHaveLength(2);
  expect(queries[1]).toContain("$externalSubscriptionId: Int!");
});

it("re-declares periods as DateTime! and normalizes offset timestamps", async () => {
  queries.length = 0;
  const u = await getConsumption(
    { baseUrl: url, token: "t" },
    { projectId: 4242, from: "2026-11-01", to: "2026-11-02" },
  );
  expect(queries[queries.length - 1]).toContain("$periodFrom: DateTime!");
  expect(u.items).toEqual([
    { day: "2026-11-01", totalAmount: 0.1, totalBonuses: 0.01 },
    { day: "2026-11-02", totalAmount: 0.2, totalBonuses: 0 },
  ]);
  expect(u.total).toEqual({ amount: 0.3, bonuses: 0.01 });
});

it("reads a balance answered at the top of data, without bill", async () => {
  const flat = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: { getSubscriptionBalance: { balance: "5.10 RUB", bonuses: null } } }));
  });
  await new Promise<void>((ok) => flat.listen(0, "127.0.0.1", ok));
  try {
    const b = await getBalance(
      { baseUrl: `http://127.0.0.1:${(flat.address() as AddressInfo).port}`, token: "t" },
      { projectId: 1 },
    );
    expect(b).toMatchObject({ balance: 5.1, bonuses: 0 });
  } finally {
    flat.close();
  }
});
