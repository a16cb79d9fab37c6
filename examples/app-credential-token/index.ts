// An OS_TOKEN for this cloud, kept secret and renewed before it expires.
//
//   pulumi config set authUrl https://identity.example/v3
//   pulumi config set appCredId <id>
//   pulumi config set --secret appCredSecret <secret>
//   pulumi up
//
// Offline: `npx costgate emulator` prints an identity URL and credentials to use.
import * as pulumi from "@pulumi/pulumi";
import { AppCredentialToken } from "costgate";

const cfg = new pulumi.Config();

const token = new AppCredentialToken("ci", {
  authUrl: cfg.get("authUrl"), // default: OS_AUTH_URL
  applicationCredentialId: cfg.get("appCredId"), // default: OS_APPLICATION_CREDENTIAL_ID
  applicationCredentialSecret: cfg.getSecret("appCredSecret"), // default: OS_APPLICATION_CREDENTIAL_SECRET
  renewBefore: cfg.get("renewBefore") ?? "30m",
});

export const osToken = token.token;
export const expiresAt = token.expiresAt;
export const projectId = token.projectId;
export const roles = token.roles;
export const computeUrl = token.endpoint("compute", "public");
