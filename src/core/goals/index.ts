/** Goals, weeks, the day chain and the year view (contract §2 plan.md, §4c): pure over sessions and the plan. */
export * from "./plan-values";
export * from "./plan";
export * from "./study-log";
export * from "./weeks";
export * from "./day-chain";
export * from "./year";
export * from "./progress";
export * from "./plan-change";
export * from "./plan-text";
export * from "./describe";
export * from "./year-grid";
