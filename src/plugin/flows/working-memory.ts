import { classifyRecord } from "../../core/records/frontmatter";
import { skippedWarning } from "../../core/records/records";
import type { FlowContext } from "./context";
import { fail, warn } from "./notices";
import { openPath } from "./open-session";

export async function rebuild(ctx: FlowContext): Promise<void> {
  try {
    const result = await ctx.controller.rebuild();
    const total = result.totalConfirmed;
    ctx.notify(`Rebuilt working memory and index from ${total} session${total === 1 ? "" : "s"}.`);
    warn(ctx, [...result.skipped.map(skippedWarning), ...result.warnings], true);
  } catch (error) {
    fail(ctx, "rebuild working memory and index", error);
  }
}

export async function openHot(ctx: FlowContext): Promise<void> {
  try {
    if ((await ctx.controller.readHot()) === null) await ctx.controller.rebuild();
    await openPath(ctx, ctx.controller.layout.hot);
  } catch (error) {
    fail(ctx, "open the working memory", error);
  }
}

export async function copyHot(ctx: FlowContext): Promise<void> {
  try {
    const read = classifyRecord(await ctx.controller.readHot());
    if (read.state !== "ok" && read.state !== "no-frontmatter") {
      ctx.notify("There is no working memory to copy yet.");
      return;
    }
    await navigator.clipboard.writeText(read.body.trim());
    ctx.notify("Working memory copied to the clipboard.");
  } catch (error) {
    fail(ctx, "copy the working memory", error);
  }
}
