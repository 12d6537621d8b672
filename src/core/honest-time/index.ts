/**
 * Honest time (contract §4, version 2; invariant 11): the pure rules behind pause, continue, time away, end at a
 * chosen time and log, one file per concept. No I/O: the operations read the draft, call these and write
 * what they return. Instants are epoch ms; `offsetAt(instant)` is the local UTC offset in minutes east of UTC.
 */
export * from "./signs-of-life";
export * from "./breaks";
export * from "./draft-fields";
export * from "./pause";
export * from "./silence";
export * from "./end-at";
export * from "./away";
export * from "./session-start";
export * from "./log-interval";
