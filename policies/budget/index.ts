/**
 * The costgate budget policy pack: `pulumi preview --policy-pack node_modules/costgate/policies/budget`.
 */
import { PolicyPack } from "@pulumi/policy";
import { budgetPolicies } from "./policies";

new PolicyPack("costgate-budget", { policies: budgetPolicies });
