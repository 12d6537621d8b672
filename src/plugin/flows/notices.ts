import { ConflictError, PaleeError, afterSaveError, errorMessage } from "../../core/errors";
import type { FlowContext } from "./context";

/** Notices stay up longer when they carry something to act on. */
export const LONG_NOTICE_MS = 10_000;

/** "14:05" for a recorded time today, else "2026-08-14 14:05": the core's one rendering of a time. */

/** A message of the core as a sentence of the UI: capitalized. */
export function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One clear sentence for a failure: conflicts say what changed and what to do. */
export function describeFailure(what: string, error: unknown): string {
  if (error instanceof ConflictError && error.savedSession) {
    return (
      `Session saved as ${error.savedSession}, but ${error.path} changed on another device or in an editor ` +
      `while it was being updated. Run "Rebuild working memory and index" to refresh it.`
    );
  }
  // A failure after the session note was written (a full disk on index.md): the session is safe, say so first.
  const saved = afterSaveError(error);
  if (saved !== null) {
    return (
      `Session saved as ${saved.savedSession}, but updating the views failed (${errorMessage(error)}). ` +
      `Run "Rebuild working memory and index" once that is fixed.`
    );
  }
  if (error instanceof ConflictError) {
    return `Could not ${what}: ${error.path} changed on another device or in an editor. Try again.`;
  }
  if (error instanceof PaleeError && error.kind === "nothing_open") return `Could not ${what}: no session is open.`;
  if (error instanceof PaleeError) return `Could not ${what}: ${error.message}`;
  return `Could not ${what}: unexpected error (${errorMessage(error)})`;
}

/** A failure as a notice; an unexpected one also goes to the console, with its stack. */
export function fail(ctx: FlowContext, what: string, error: unknown): void {
  if (!(error instanceof PaleeError)) console.error("PALEE Sessions:", error);
  ctx.notify(describeFailure(what, error), LONG_NOTICE_MS);
}

/** Three warnings, then a count; `all` (the rebuild the count points to) shows every one. */
export function warn(ctx: FlowContext, warnings: readonly string[], all = false): void {
  if (warnings.length === 0) return;
  const limit = all ? warnings.length : 3;
  const shown = warnings.slice(0, limit).join("\n");
  const more =
    warnings.length > limit
      ? `\n…and ${warnings.length - limit} more (rebuild working memory and index to see the whole list)`
      : "";
  ctx.notify(`PALEE Sessions:\n${shown}${more}`, LONG_NOTICE_MS);
}
