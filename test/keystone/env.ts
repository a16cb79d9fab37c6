/**
 * What test/keystone/keystone.sh writes to DIR/env.json, and what test/keystone/global-setup.ts provides to
 * the tests as `inject("keystone")` (null when no real Keystone is available; see `keystoneSkipReason`).
 */
export interface KeystoneEnv {
  /** Identity v3 endpoint, e.g. http://127.0.0.1:41234/v3 (no trailing slash). */
  authUrl: string;
  port: number;
  /** pid of keystone-wsgi-public (leader of its own process group). */
  pid: number;
  /** Password of `admin` (domain `default`, project `admin`, role `admin`). */
  adminPassword: string;
  domainId: string;
  domainName: string;
  projectId: string;
  projectName: string;
  userId: string;
  userName: string;
  /** The user's password: deliberately non-ASCII, e.g. "pässwörd-0123456789ab-日本". */
  password: string;
  /** Role the user holds on the project ("member"; it implies "reader"). */
  roleName: string;
  /** Application credential of the user, bound to the project (unrestricted: false). */
  appCredId: string;
  appCredName: string;
  appCredSecret: string;
  regionId: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    keystone: KeystoneEnv | null;
    keystoneSkipReason: string;
  }
}
