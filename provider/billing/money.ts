/**
 * Amounts from the wire, kept under this path for its importers: provider/money.ts is the one money module.
 * (`export *`: the names marked internal there leave the declarations with them, and no dangling name stays.)
 */
export * from "../money";
