/**
 * The time module, one file per concept: instants and units, reading ISO 8601, writing it, local days and
 * offsets, HH:MM typed by the learner, and the display of durations and times for people.
 */
export * from "./instants";
export * from "./parse-iso";
export * from "./render-iso";
export * from "./local-days";
export * from "./wall-clock";
export * from "./display";
export * from "./as-of";
