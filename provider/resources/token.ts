/**
 * AppCredentialToken and PasswordToken: Keystone tokens as Pulumi resources, plus getToken and
 * getTokenOutput for programs that want a fresh token each run without state.
 */
import * as pulumi from "@pulumi/pulumi";
import { type EndpointInterface, findEndpoint } from "../identity/catalog";
import { IDENTITY_FIELDS } from "../identity/fields";
import type { CatalogService, Token } from "../identity/results";
import { issueToken } from "../identity/tokens";
import { type IdentityArgs, identityDefaults, resolveIdentitySettings } from "../settings";
import { parseDuration } from "./duration";
import { fallbacks, type TokenInputs } from "./token-impl";
import { TokenProvider } from "./token-provider";

/** Settings shared by both token resources. */
export interface TokenResourceArgs {
  /** Identity base address ending in /v3. Default: `OS_AUTH_URL`, then clouds.yaml. */
  authUrl?: pulumi.Input<string>;
  /**
   * When the stored token has less than this left, the next `up` re-issues it (and revokes the old one).
   * Seconds, or a duration like "30m" or "2h". Default "30m".
   */
  renewBefore?: pulumi.Input<number | string>;
  /** A PEM bundle of CA certificates to trust. Default: `OS_CACERT`. */
  caCert?: pulumi.Input<string>;
  /** Skip TLS verification. Prefer `caCert`. */
  insecure?: pulumi.Input<boolean>;
  /** Timeout of each identity request, in seconds. Default 60. */
  timeoutSeconds?: pulumi.Input<number>;
  /** A cloud of clouds.yaml to take missing settings from. Default: `OS_CLOUD`. */
  cloud?: string;
}

/** AppCredentialTokenArgs: an application credential by id (or by name with its user) and its secret (docs/API.md#issue-a-token-with-an-application-credential). */
export interface AppCredentialTokenArgs extends TokenResourceArgs {
  /** Default: `OS_APPLICATION_CREDENTIAL_ID`. */
  applicationCredentialId?: pulumi.Input<string>;
  /** With a credential name, give its user (userId, or username and userDomainName). */
  applicationCredentialName?: pulumi.Input<string>;
  /** The secret, shown once at creation. Stored as a secret. Default: `OS_APPLICATION_CREDENTIAL_SECRET`. */
  applicationCredentialSecret?: pulumi.Input<string>;
  userId?: pulumi.Input<string>;
  username?: pulumi.Input<string>;
  userDomainName?: pulumi.Input<string>;
  userDomainId?: pulumi.Input<string>;
}

/** PasswordTokenArgs: a user and password with a project scope (docs/API.md#issue-a-token-with-a-password). */
export interface PasswordTokenArgs extends TokenResourceArgs {
  /** Default: `OS_USERNAME`. */
  username?: pulumi.Input<string>;
  userId?: pulumi.Input<string>;
  /** Default: `OS_USER_DOMAIN_NAME`. */
  userDomainName?: pulumi.Input<string>;
  userDomainId?: pulumi.Input<string>;
  /** Stored as a secret. Default: `OS_PASSWORD`. */
  password?: pulumi.Input<string>;
  projectName?: pulumi.Input<string>;
  projectId?: pulumi.Input<string>;
  projectDomainId?: pulumi.Input<string>;
  projectDomainName?: pulumi.Input<string>;
}

const provider = new TokenProvider();

/** The token and every secret identity field (identity/fields.ts) are stored encrypted. */
const SECRET_OUTPUTS = ["token", ...IDENTITY_FIELDS.filter((f) => f.secret).map((f) => f.name)];

type InputMap = { [K in keyof TokenInputs]?: pulumi.Input<TokenInputs[K]> };

function renewBeforeSeconds(v: pulumi.Input<number | string> | undefined): pulumi.Input<number> | undefined {
  if (v === undefined) return undefined;
  if (typeof v === "number" || typeof v === "string") return parseDuration(v, "renewBefore");
  return pulumi.output(v).apply((x) => parseDuration(x, "renewBefore"));
}

function orDefault<T>(given: pulumi.Input<T> | undefined, fallback: T | undefined, secret = false) {
  if (given !== undefined) return secret ? pulumi.secret(given) : given;
  if (fallback === undefined) return undefined;
  return secret ? pulumi.secret(fallback) : fallback;
}

/** The outputs both token resources share. */
export abstract class KeystoneToken extends pulumi.dynamic.Resource {
  /** The token (OS_TOKEN): the `X-Subject-Token` value. Secret. */
  declare readonly token: pulumi.Output<string>;
  /** When the token expires, ISO 8601 UTC. */
  declare readonly expiresAt: pulumi.Output<string>;
  /** When the token was issued, ISO 8601 UTC. */
  declare readonly issuedAt: pulumi.Output<string>;
  /** The auth methods Keystone recorded, e.g. `["application_credential"]`. */
  declare readonly methods: pulumi.Output<string[]>;
  declare readonly userId: pulumi.Output<string>;
  declare readonly userName: pulumi.Output<string>;
  /** The project the token is scoped to. */
  declare readonly projectId: pulumi.Output<string>;
  declare readonly projectName: pulumi.Output<string>;
  /** Role names granted by the token. */
  declare readonly roles: pulumi.Output<string[]>;
  /** The service catalog of the token. */
  declare readonly catalog: pulumi.Output<CatalogService[]>;
  /** The first audit id of the token; also the resource id. */
  declare readonly auditId: pulumi.Output<string>;
  /** The identity address the token came from, normalized to end in /v3. */
  declare readonly authUrl: pulumi.Output<string>;

  protected constructor(type: string, name: string, inputs: InputMap, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      token: undefined,
      expiresAt: undefined,
      issuedAt: undefined,
      methods: undefined,
      userId: undefined,
      userName: undefined,
      projectId: undefined,
      projectName: undefined,
      roles: undefined,
      catalog: undefined,
      auditId: undefined,
    };
    const props = Object.fromEntries(
      Object.entries({ ...outputs, ...inputs }).filter(([k, v]) => v !== undefined || k in outputs),
    );
    super(
      provider,
      name,
      props,
      {
        ...opts,
        additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...SECRET_OUTPUTS],
      },
      "costgate",
      type,
    );
  }

  /**
   * endpoint looks up a service URL in the token's catalog.
   * @example token.endpoint("compute", "public", "RegionOne")
   */
  endpoint(
    serviceType: string,
    iface: EndpointInterface | string = "public",
    region?: string,
  ): pulumi.Output<string | undefined> {
    return this.catalog.apply((c) => findEndpoint(c ?? [], serviceType, iface, region));
  }
}

function common(args: TokenResourceArgs, fb: Partial<TokenInputs>): InputMap {
  return {
    authUrl: orDefault(args.authUrl, fb.authUrl),
    renewBeforeSeconds: renewBeforeSeconds(args.renewBefore),
    caCert: orDefault(args.caCert, fb.caCert),
    insecure: orDefault(args.insecure, fb.insecure),
    timeoutSeconds: args.timeoutSeconds,
  };
}

/** given tells which arguments were given, for fallbacks (token-impl.ts). */
function givenIn(args: object): (key: keyof TokenInputs) => boolean {
  return (key) => (args as Record<string, unknown>)[key] !== undefined;
}

/**
 * AppCredentialToken issues an OS_TOKEN with an application credential (docs/API.md#issue-a-token-with-an-application-credential), keeps it
 * secret, re-issues it when it nears expiry (`renewBefore`) and revokes it on delete.
 *
 * @example
 * const cfg = new pulumi.Config();
 * const token = new AppCredentialToken("ci", {
 *   authUrl: "https://identity.example/v3",
 *   applicationCredentialId: cfg.require("appCredId"),
 *   applicationCredentialSecret: cfg.requireSecret("appCredSecret"),
 * });
 * export const computeUrl = token.endpoint("compute", "public");
 */
export class AppCredentialToken extends KeystoneToken {
  constructor(name: string, args: AppCredentialTokenArgs = {}, opts?: pulumi.CustomResourceOptions) {
    const fb = fallbacks("application_credential", givenIn(args), identityDefaults(args.cloud));
    super(
      "AppCredentialToken",
      name,
      {
        authType: "application_credential",
        ...common(args, fb),
        applicationCredentialId: orDefault(args.applicationCredentialId, fb.applicationCredentialId),
        applicationCredentialName: args.applicationCredentialName,
        applicationCredentialSecret: orDefault(
          args.applicationCredentialSecret,
          fb.applicationCredentialSecret,
          true,
        ),
        userId: args.userId,
        username: args.username,
        userDomainName: args.userDomainName,
        userDomainId: args.userDomainId,
      },
      opts,
    );
  }
}

/**
 * PasswordToken issues a project-scoped OS_TOKEN with a user name and password (docs/API.md#issue-a-token-with-a-password).
 *
 * @example
 * const token = new PasswordToken("ops", {
 *   authUrl: "https://identity.example/v3",
 *   username: "ci-bot", userDomainName: "Default", password: cfg.requireSecret("password"),
 *   projectName: "web", projectDomainId: "default",
 * });
 */
export class PasswordToken extends KeystoneToken {
  constructor(name: string, args: PasswordTokenArgs = {}, opts?: pulumi.CustomResourceOptions) {
    const fb = fallbacks("password", givenIn(args), identityDefaults(args.cloud));
    super(
      "PasswordToken",
      name,
      {
        authType: "password",
        ...common(args, fb),
        username: orDefault(args.username, fb.username),
        userId: orDefault(args.userId, fb.userId),
        userDomainName: orDefault(args.userDomainName, fb.userDomainName),
        userDomainId: orDefault(args.userDomainId, fb.userDomainId),
        password: orDefault(args.password, fb.password, true),
        projectName: orDefault(args.projectName, fb.projectName),
        projectId: orDefault(args.projectId, fb.projectId),
        projectDomainId: orDefault(args.projectDomainId, fb.projectDomainId),
        projectDomainName: orDefault(args.projectDomainName, fb.projectDomainName),
      },
      opts,
    );
  }
}

/**
 * getToken issues a fresh token without state: arguments first, then `OS_*` env, then clouds.yaml.
 * The caller owns the token (revoke it with revokeToken when done, or let it expire).
 *
 * @example const { id, expiresAt } = await getToken({ cloud: "prod" });
 */
export async function getToken(args: IdentityArgs = {}): Promise<Token> {
  const s = resolveIdentitySettings(args);
  return issueToken({ authUrl: s.authUrl, transport: s.transport }, s.auth);
}

/** GetTokenOutputArgs are IdentityArgs whose values may be Pulumi inputs. */
export type GetTokenOutputArgs = { [K in keyof IdentityArgs]: pulumi.Input<IdentityArgs[K]> };

/**
 * getTokenOutput is getToken for Pulumi inputs. The whole result is a secret, since it carries the token.
 *
 * @example const t = getTokenOutput({ authUrl, applicationCredentialId: id, applicationCredentialSecret: secret });
 */
export function getTokenOutput(args: GetTokenOutputArgs = {}): pulumi.Output<Token> {
  return pulumi.secret(pulumi.output(args).apply((a) => getToken(a as IdentityArgs)));
}
