/**
 * UTC calendar days as whole numbers, kept under this path for its importers (provider/calendar.ts is the
 * one calendar).
 */
export {
  dayNumber,
  dayString,
  daysLeftInMonth,
  type MonthPosition,
  monthPosition,
  utcDay,
} from "../calendar";
