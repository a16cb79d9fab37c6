/**
 * The identity conformance suite against a real OpenStack Keystone (test/keystone/keystone.sh).
 */
import { describe, inject } from "vitest";
import "../keystone/env";
import { tokenResourceConformance } from "../resources/token.conformance";
import { type IdentityTarget, identityConformance } from "./conformance";

const ks = inject("keystone");
const target = (): IdentityTarget => ({
  authUrl: ks!.authUrl,
  appCredId: ks!.appCredId,
  appCredSecret: ks!.appCredSecret,
  userName: ks!.userName,
  userDomainName: ks!.domainName,
  password: ks!.password,
  projectName: ks!.projectName,
  projectDomainId: ks!.domainId,
  projectId: ks!.projectId,
});

describe.skipIf(!ks)(
  `identity client against a real Keystone${ks ? "" : ` (skipped: ${inject("keystoneSkipReason")})`}`,
  () => {
    identityConformance(target);
  },
);

describe.skipIf(!ks)("token resources through the dynamic-provider host against a real Keystone", () => {
  tokenResourceConformance(target);
});
