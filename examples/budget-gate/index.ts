// A program gated by costgate's budget pack. The pack reads billing itself (policies cannot see
// data sources); this program also reads the same figures, to show them in the stack outputs.
//
//   export COSTGATE_BILLING_URL=https://console.example COSTGATE_BILLING_TOKEN=...   # a console access token
//   pulumi preview --policy-pack node_modules/costgate/policies/budget \
//                  --policy-pack-config policy-config.json   # from: costgate policy-config --config costgate.yaml
//
// With a rateCard in costgate.yaml, the OpenStack resources this preview creates
// (openstack.compute.Instance, openstack.blockstorage.Volume, openstack.networking.FloatingIp)
// are priced, and runway and month-end forecast are judged before and after the change.
import * as pulumi from "@pulumi/pulumi";
import { getProjectBalanceOutput, getProjectConsumptionOutput } from "costgate";

const cfg = new pulumi.Config();
const projectId = cfg.requireNumber("projectId");
const today = new Date();
const monthStart = `${today.toISOString().slice(0, 8)}01`;

const balance = getProjectBalanceOutput({ projectId, product: "openstack" });
const usage = getProjectConsumptionOutput({ projectId, product: "openstack", from: monthStart, to: today });

export const projectBalance = balance.balance;
export const monthToDate = usage.total.amount;
export const dailyAverage = usage.dailyAverage;
