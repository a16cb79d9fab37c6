/**
 * One resource's life through Pulumi's dynamic-provider host, as `pulumi up`, `refresh` and
 * `destroy` drive it: Check, Create, Diff (unchanged, renewal window, rotated credential), Update,
 * Read, Delete. Returns everything the host answered, for the canary scans.
 */
import { expect } from "vitest";
import type { Props, ProviderHost } from "../helpers/provider-host";
import type { Registered } from "./register";

/** What the host answered over one life. */
export interface HostAnswers {
  /** Check's inputs: stored as the resource's inputs. */
  inputs: Props;
  /** The outputs of Create, Update and Read, in that order: stored as the resource's outputs. */
  outputs: Props[];
  /** Check failures and Diff answers (property names, never values). */
  other: unknown[];
  /** The issued token. */
  token: string;
}

/** urnOf is the URN the engine gives a costgate dynamic resource. */
export function urnOf(type: string, name: string): string {
  return `urn:pulumi:test::costgate-test::pulumi-nodejs:dynamic/costgate:${type}::${name}`;
}

/** lifeOverHost drives one registration from Check to Delete; `rotate` names its credential input. */
export async function lifeOverHost(
  host: ProviderHost,
  reg: Registered,
  rotate: { key: string; value: string },
): Promise<HostAnswers> {
  const urn = urnOf(reg.type.split(":").pop() ?? "", reg.name);
  const checked = await host.check(urn, {}, reg.inputs);
  expect(checked.failures).toEqual([]);
  const { id, properties: created } = await host.create(urn, checked.inputs);
  const diffs = [
    await host.diff(id, urn, created, checked.inputs),
    await host.diff(id, urn, created, { ...checked.inputs, renewBeforeSeconds: 10 * 24 * 3600 }),
    await host.diff(id, urn, created, { ...checked.inputs, [rotate.key]: rotate.value }),
  ];
  expect(diffs[1]?.replaces).toEqual(["expiresAt"]);
  expect(diffs[2]?.replaces).toContain(rotate.key);
  const tweaked = { ...checked.inputs, renewBeforeSeconds: 60 };
  const { properties: updated } = await host.update(id, urn, created, tweaked);
  const { properties: read } = await host.read(id, urn, updated);
  expect(read.token).toBe(created.token);
  await host.delete(id, urn, read);
  return {
    inputs: checked.inputs,
    outputs: [created, updated, read],
    other: [checked.failures, ...diffs, id],
    token: String(created.token),
  };
}
