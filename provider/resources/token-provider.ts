/**
 * The dynamic provider shared by AppCredentialToken and PasswordToken. It is serialized into state
 * for every resource, so it holds nothing: each method loads the implementation by package name
 * at run time. No credential, token or schema object is ever captured (PULUMI-NOTES.md).
 * @internal
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TokenInputs, TokenOutputs } from "./token-impl";

type Impl = typeof import("./token-impl");

/** TokenProvider implements the dynamic-provider protocol over ./token-impl. */
export class TokenProvider implements pulumi.dynamic.ResourceProvider<TokenInputs, TokenOutputs> {
  async check(_olds: TokenInputs, news: TokenInputs): Promise<pulumi.dynamic.CheckResult<TokenInputs>> {
    const impl: Impl = require("costgate/dist/provider/resources/token-impl.js");
    return impl.check(news);
  }
  async diff(_id: string, olds: TokenOutputs, news: TokenInputs): Promise<pulumi.dynamic.DiffResult> {
    const impl: Impl = require("costgate/dist/provider/resources/token-impl.js");
    return impl.diff(olds, news);
  }
  async create(inputs: TokenInputs): Promise<pulumi.dynamic.CreateResult<TokenOutputs>> {
    const impl: Impl = require("costgate/dist/provider/resources/token-impl.js");
    return impl.create(inputs);
  }
  async read(id: string, props?: TokenOutputs): Promise<pulumi.dynamic.ReadResult<TokenOutputs>> {
    const impl: Impl = require("costgate/dist/provider/resources/token-impl.js");
    return props ? impl.read(id, props) : {};
  }
  async update(
    _id: string,
    olds: TokenOutputs,
    news: TokenInputs,
  ): Promise<pulumi.dynamic.UpdateResult<TokenOutputs>> {
    const impl: Impl = require("costgate/dist/provider/resources/token-impl.js");
    return impl.update(olds, news);
  }
  async delete(_id: string, props: TokenOutputs): Promise<void> {
    const impl: Impl = require("costgate/dist/provider/resources/token-impl.js");
    return impl.remove(props);
  }
}
