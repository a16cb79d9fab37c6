export {
  FLOATING_IP,
  INSTANCE,
  type Price,
  type Priced,
  Pricer,
  priceMonthly,
  SECRET_TEXT,
  UNKNOWN_TEXT,
  VOLUME,
} from "./price";
export {
  HOURS_PER_MONTH,
  type Periodic,
  parseRateCard,
  type RateCard,
  rateCardJsonSchema,
  readRateCard,
  type TypePrice,
} from "./rate-card";
