import { CONFIRMED_FILE_PATTERN, DRAFT_FILE_PATTERN } from "../ids";

export const NOT_A_SESSION = "not a session file name (expected S-….md or DRAFT-S-….md)";

/** What a file name in the sessions folder is: a draft, a confirmed note, another note, or no note at all. */
export type NameKind = "draft" | "confirmed" | "other" | "ignored";

export function kindOf(name: string): NameKind {
  if (name.startsWith(".") || !name.toLowerCase().endsWith(".md")) return "ignored"; // not a note (e.g. a temp file)
  if (DRAFT_FILE_PATTERN.test(name)) return "draft";
  if (CONFIRMED_FILE_PATTERN.test(name)) return "confirmed";
  return "other";
}
