/**
 * Topics (contract §1, §2 "IDs", §4 "finding a topic by name", §5 "topics by name"): the topic ID, the topic
 * note, resolution of a typed value with its refusals, and the display name. The faces read the topic notes
 * (one reader each) and ask this folder what they mean.
 */
export * from "./ids";
export * from "./note";
export * from "./resolve";
export * from "./display";
