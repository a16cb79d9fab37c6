export {
  type CostedResource,
  foldSteps,
  type PreviewCost,
  priceDigest,
  type UnpricedResource,
} from "./cost";
export {
  type DigestState,
  type DigestStep,
  type PreviewDigest,
  parseDigest,
  typeOfUrn,
} from "./digest";
export {
  type AfterChange,
  type ChangeGateName,
  type ChangeGates,
  type GateFinding,
  judgeChange,
} from "./gates";
