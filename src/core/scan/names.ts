import { CONFIRMED_FILE_PATTERN, DRAFT_FILE_PATTERN } from "../records/ids";

export const NOT_A_SESSION = "not a session file name (expected S-….md or DRAFT-S-….md)";

/** An iCloud placeholder of a session file that is not downloaded yet: `.S-….md.icloud`, `.DRAFT-S-….md.icloud`. */
const PLACEHOLDER = /^\.(.+\.md)\.icloud$/;

export const NOT_DOWNLOADED = "not downloaded (an iCloud placeholder): not counted until iCloud downloads it";

/**
 * What a file name in the sessions folder is: a draft, a confirmed note, another note, a session file that
 * is not downloaded yet (an iCloud placeholder), or no note at all.
 */
export type NameKind = "draft" | "confirmed" | "other" | "placeholder" | "ignored";

export function kindOf(name: string): NameKind {
  const inner = name.startsWith(".") ? PLACEHOLDER.exec(name)?.[1] : undefined; // most names: no regex run
  if (inner !== undefined && !inner.startsWith(".")) {
    const kind = kindOf(inner);
    if (kind === "draft" || kind === "confirmed") return "placeholder";
  }
  // Not a note (e.g. a temp file):
  if (name.startsWith(".") || !(name.endsWith(".md") || name.toLowerCase().endsWith(".md"))) return "ignored";
  // The prefixes first: 30 000 names are told apart here on every call, and most are one regex, not two.
  if (name.startsWith("DRAFT-S-") && DRAFT_FILE_PATTERN.test(name)) return "draft";
  if (name.startsWith("S-") && CONFIRMED_FILE_PATTERN.test(name)) return "confirmed";
  return "other";
}
