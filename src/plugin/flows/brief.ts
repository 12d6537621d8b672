import type { FlowContext } from "./context";
import { fail } from "./notices";
import { headingProbe } from "./review-queue";
import { topicName } from "./topics";

/**
 * "Copy tutor brief" (contract §4b context): the brief of the active topic (else the newest session's) on the
 * clipboard, ready to paste into a tutor. Nothing to brief: a notice says so and the clipboard is left alone.
 */
export async function copyBrief(ctx: FlowContext): Promise<void> {
  try {
    const brief = await ctx.controller.brief(null, headingProbe(ctx));
    if (brief.topicId === null) {
      ctx.notify("There is no topic to brief yet: start a session first.");
      return;
    }
    await navigator.clipboard.writeText(brief.text.trim());
    ctx.notify(`Tutor brief of ${topicName(ctx, brief.topicId, brief.topicNote)} copied to the clipboard.`);
  } catch (error) {
    fail(ctx, "copy the tutor brief", error);
  }
}
