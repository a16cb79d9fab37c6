/**
 * Amounts from the wire: the money module's reading half, kept under this path for its importers
 * (provider/money.ts is the one money module).
 */
export {
  AMOUNT_BOUNDS,
  type AmountReading,
  cents,
  MAX_AMOUNT,
  MAX_AMOUNT_CHARS,
  MAX_AMOUNT_DECIMALS,
  parseAmount,
  quoteWire,
  readAmount,
  sum,
  toNumber,
} from "../money";
