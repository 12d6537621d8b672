import { bodyAfterFrontmatter, classifyRecord, describeReadProblem } from "./frontmatter";
import type { Layout } from "./layout";

/**
 * Invariant 10: a hot.md the tool did not write (no frontmatter, another palee_schema, frontmatter that does
 * not parse) keeps its text when the tool replaces it. Returns why `current` holds such text, or null: an ok
 * hot.md is the tool's derived view, and one whose body is blank (missing, empty, damaged properties only)
 * holds no text of the learner's. A body that start carries over is copied too: once it has the tool's
 * frontmatter, the next end replaces it as the derived view.
 */
export function handWrittenHot(current: string | null): string | null {
  if (current === null || bodyAfterFrontmatter(current).trim() === "") return null;
  const read = classifyRecord(current);
  if (read.state === "ok" || read.state === "missing") return null;
  return read.state === "no-frontmatter" ? "no frontmatter" : describeReadProblem(read);
}

/**
 * Where the old text goes before it is replaced: a new file beside hot.md, created create-only (never over
 * anything), named by the local time — `hot-kept-20260814-120000.md`, then `-2`, `-3` on a collision.
 */
export function keptCopyPath(layout: Layout, localTimestamp: string, attempt: number): string {
  const stamp = localTimestamp.slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
  return `${layout.folder}/hot-kept-${stamp}${attempt === 0 ? "" : `-${attempt + 1}`}.md`;
}
