/**
 * Money for the budget engine, kept under this path for its importers (provider/money.ts is the one
 * money module; the day of month is the calendar's, provider/calendar.ts).
 */
export { formatDayOfMonth } from "../calendar";
export { cents, formatFixed1, formatMoney, formatNumber, sum, tenths, tenthsDown } from "../money";
