import { UsageError } from "../errors";
import type { RandomSource } from "../ports";
import { formatUtcCompact } from "../time/index";

export const DRAFT_ID_PATTERN = /^DRAFT-S-[0-9a-f]{8}$/;
export const DRAFT_FILE_PATTERN = /^DRAFT-S-.*\.md$/;
export const CONFIRMED_FILE_PATTERN = /^S-.*\.md$/;

/**
 * Whether a value read from hot.md's open_draft can name a draft file: DRAFT-S-… with no separators, "..",
 * or control characters (renamed drafts and sync-conflict copies keep other tails). Anything else is a
 * damaged pointer and never reaches a path.
 */
export function isDraftId(value: string): boolean {
  return /^DRAFT-S-[^/\\]+$/.test(value) && !value.includes("..") && !/\p{Cc}/u.test(value);
}

export function hex(random: RandomSource, bytes: number): string {
  return Array.from(random.bytes(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** S-<started_at in UTC as YYYYMMDDTHHMMSS>-<4 hex> */
export function newSessionId(startedAt: number, random: RandomSource): string {
  return `S-${formatUtcCompact(startedAt)}-${hex(random, 2)}`;
}

/** DRAFT-S-<8 hex> */
export function newDraftId(random: RandomSource): string {
  return `DRAFT-S-${hex(random, 4)}`;
}

/**
 * Renders text read from a note (a topic ID, possibly legacy or hostile) so it cannot break the Markdown
 * around it: line breaks become spaces, and link, table, tag and HTML characters are backslash-escaped.
 */
export function inlineMarkdownText(value: string): string {
  return value.replace(/[\p{Cc}\u2028\u2029]+/gu, " ").replace(/[\\`*_[\]<>#|~!{}()$%=^]/g, (c) => `\\${c}`);
}

/** The longest agent ID accepted (contract §4b `--agent`). */
export const AGENT_ID_MAX = 200;

/** An agent ID: a letter or digit, then letters, digits and `._:@/-` (e.g. `claude-code:5f1c…`). */
const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._:@/-]*$/;

/**
 * Who opened a session, when it was not the learner by hand (contract §2 `agent`, §4b): non-empty, at most
 * AGENT_ID_MAX characters, one line of the characters AGENT_ID allows. Anything else is refused (exit 2).
 */
export function validateAgentId(value: string): string {
  if (value.length === 0 || value.length > AGENT_ID_MAX || !AGENT_ID.test(value)) {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    throw new UsageError(
      `invalid agent ID ${JSON.stringify(shown)}: 1 to ${AGENT_ID_MAX} characters, a letter or digit first, ` +
        "then letters, digits and . _ : @ / - (e.g. claude-code:<session id>)",
    );
  }
  return value;
}
