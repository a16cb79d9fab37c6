/**
 * UTC calendar days as whole numbers, kept under this path for its importers: provider/calendar.ts is the one
 * calendar (`export *`: the names marked internal there leave the declarations with them).
 */
export * from "../calendar";
