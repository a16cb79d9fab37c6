/**
 * UTC calendar days as whole numbers, kept under this path for its importers (provider/calendar.ts is the
 * one calendar).
 */
export {
  daysLeftInMonth,
  dayNumber,
  dayString,
  type MonthPosition,
  monthPosition,
  utcDay,
} from "../calendar";
