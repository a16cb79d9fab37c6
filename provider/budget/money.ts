/**
 * Money for the budget engine, kept under this path for its importers: provider/money.ts is the one money
 * module, and the day of month is the calendar's (provider/calendar.ts).
 */

/** @internal */
export { formatDayOfMonth } from "../calendar";
export * from "../money";
