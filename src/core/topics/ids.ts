/**
 * Topic IDs (contract §2 "IDs"): the pattern new input must match, what a typed or recorded value means, and
 * the ID a note gets when it becomes a topic. Topic IDs never reach a file path.
 */
import { UsageError } from "../errors";
import type { RandomSource } from "../ports";
import { hex } from "../records/ids";
import { formatUtcCompact } from "../time/index";

export const TOPIC_ID_PATTERN = /^T-[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/;

/**
 * A topic value as found in a record or typed by a user: blank and the literal "(none)" (any case,
 * surrounding spaces) mean "no topic". Anything else is kept as it is (trimmed).
 */
export function normalizeTopic(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  if (trimmed === "" || trimmed.toLowerCase() === "(none)") return null;
  return trimmed;
}

/** What a topic ID is made of, in the same words on every face. */
export const TOPIC_ID_RULE = 'use T- followed by letters, digits, ".", "_" or "-"';

/** Validates a topic ID given as new input (CLI flag, picker). Topic IDs never reach a file path. */
export function validateNewTopicId(value: string): string {
  if (TOPIC_ID_PATTERN.test(value)) return value;
  const shown = JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  throw new UsageError(`invalid topic ID ${shown}: ${TOPIC_ID_RULE} (e.g. T-rust-ownership)`, "invalid_topic");
}

/**
 * A new topic ID for a note that becomes a topic: its name as a slug ("Rust ownership" -> T-rust-ownership),
 * or, when nothing usable is left of the name (e.g. only non-Latin letters), T-<UTC time>-<4 hex>.
 */
export function topicIdForNote(noteName: string, now: number, random: RandomSource): string {
  const slug = noteName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[-._]+|[-._]+$/g, "")
    .slice(0, 100)
    .replace(/[-._]+$/g, "");
  const candidate = `T-${slug}`;
  return TOPIC_ID_PATTERN.test(candidate) ? candidate : `T-${formatUtcCompact(now)}-${hex(random, 2)}`;
}
