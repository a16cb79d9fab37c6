export * from "./auth";
export * from "./catalog";
export * from "./results";
export * from "./tokens";
export * from "./urls";
