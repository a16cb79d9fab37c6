/** money formats an amount with thousands separators and 2 decimals (provider/money.ts's formatMoney). */
export { formatMoney as money } from "../provider/money";
