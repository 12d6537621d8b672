import type { Skipped } from "../records";
import { duplicateSaves } from "../recovery";
import type { SessionContext } from "./context";
import { writeViews } from "./views";

export interface RebuildResult {
  totalConfirmed: number;
  skipped: Skipped[];
  /** Problems in the history that the rebuild does not fix (e.g. a session saved twice). */
  warnings: string[];
}

/** Regenerates hot.md and index.md from the session notes; writes nothing else. */
export async function rebuild(ctx: SessionContext): Promise<RebuildResult> {
  const scan = await ctx.scan();
  await writeViews(ctx, scan.confirmed, (current) => current, { replaceForeign: true });
  return { totalConfirmed: scan.confirmed.length, skipped: scan.skipped, warnings: duplicateSaves(scan.confirmed) };
}
