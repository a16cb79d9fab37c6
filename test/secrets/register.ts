/**
 * What a program registers, as the engine receives it: the inputs (with `__provider`), which of
 * them are secret, and the resource's `additionalSecretOutputs` — read from the mock monitor's
 * RegisterResource request, which `setMocks`' `newResource` does not show. And the engine's rule
 * for storing outputs, to split what a provider returns into the secret and the plaintext part.
 */
import { createRequire } from "node:module";
import type { Props } from "../helpers/provider-host";
import { unwrapSecrets } from "../helpers/provider-host";

const require = createRequire(import.meta.url);
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** One RegisterResource request. */
export interface Registered {
  type: string;
  name: string;
  /** The inputs, secrets unwrapped (as a provider that does not accept secrets receives them). */
  inputs: Props;
  /** The input keys whose values were secret. */
  secretInputs: string[];
  /** The request's additionalSecretOutputs. */
  additionalSecretOutputs: string[];
}

function isSecret(v: unknown): boolean {
  return typeof v === "object" && v !== null && SECRET_SIG in v;
}

/**
 * register runs `program` under Pulumi mocks and returns its `count` registrations. The dist
 * build must be loaded natively (loadDist), as a Pulumi program loads it.
 */
export async function register(program: () => void, count = 1): Promise<Registered[]> {
  const pulumi = require("@pulumi/pulumi");
  const { MockMonitor } = require("@pulumi/pulumi/runtime/mocks");
  const seen: Registered[] = [];
  const original = MockMonitor.prototype.registerResource;
  MockMonitor.prototype.registerResource = function (this: unknown, req: RegisterRequest, cb: unknown) {
    const raw = req.getObject().toJavaScript();
    seen.push({
      type: req.getType(),
      name: req.getName(),
      inputs: unwrapSecrets(raw) as Props,
      secretInputs: Object.keys(raw).filter((k) => isSecret(raw[k])),
      additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
    });
    return original.call(this, req, cb);
  };
  try {
    process.env.PULUMI_CONFIG = "{}";
    pulumi.runtime.setMocks(
      {
        newResource: (a: { name: string; inputs: Props }) => ({ id: `${a.name}-id`, state: a.inputs }),
        call: () => ({}),
      },
      "costgate-test",
      "test",
      false,
    );
    program();
    // Registration is asynchronous (serializing the provider takes a few ticks).
    for (let i = 0; i < 400 && seen.length < count; i++) await new Promise((r) => setTimeout(r, 25));
    return seen;
  } finally {
    MockMonitor.prototype.registerResource = original;
  }
}

interface RegisterRequest {
  getType(): string;
  getName(): string;
  getObject(): { toJavaScript(): Record<string, unknown> };
  getAdditionalsecretoutputsList(): string[];
}

/**
 * engineStore splits a provider's outputs as the engine stores them: an output named in
 * additionalSecretOutputs, or with the key of a secret input, is encrypted; the rest is plaintext.
 */
export function engineStore(outputs: Props, r: Pick<Registered, "secretInputs" | "additionalSecretOutputs">) {
  const secretKeys = new Set([...r.additionalSecretOutputs, ...r.secretInputs]);
  const secret: Props = {};
  const plain: Props = {};
  for (const [k, v] of Object.entries(outputs)) (secretKeys.has(k) ? secret : plain)[k] = v;
  return { secret, plain };
}
