/**
 * The token lifecycle against a real Keystone (test/keystone/keystone.sh).
 */
import { describe, inject } from "vitest";
import "../keystone/env";
import { tokenLifecycle } from "./lifecycle";

const ks = inject("keystone");

describe.skipIf(!ks)(
  `token lifecycle through the dynamic-provider host against a real Keystone${ks ? "" : ` (skipped: ${inject("keystoneSkipReason")})`}`,
  () => {
    tokenLifecycle(() => ({
      authUrl: ks!.authUrl,
      appCredId: ks!.appCredId,
      appCredSecret: ks!.appCredSecret,
    }));
  },
);
