import type { PaleeSettings } from "../settings";
import type { FlowContext } from "./context";
import { LONG_NOTICE_MS } from "./notices";
import { topicName } from "./topics";

/**
 * Settings changed on another device (Obsidian's onExternalSettingsChange, e.g. data.json delivered by Sync):
 * they take effect here at once, and the plugin already holds them when it next saves, so the old values
 * are never written back. `before` is what was in force; `apply` puts `after` in force.
 */
export async function externalSettingsArrived(
  ctx: FlowContext,
  before: PaleeSettings,
  after: PaleeSettings,
  apply: () => void,
): Promise<void> {
  const open = ctx.controller.open;
  apply();
  ctx.controller.reconfigure();
  if (before.sessionFolder === after.sessionFolder) return;
  if (open) {
    const topic = topicName(ctx, open.session.topicId, open.session.topicNote);
    ctx.notify(
      `The session folder was changed on another device to "${after.sessionFolder}". The session on ` +
        `${topic} is still open in "${before.sessionFolder}": set the folder back to ` +
        `"${before.sessionFolder}" in settings to end or recover it there.`,
      LONG_NOTICE_MS,
    );
  } else {
    ctx.notify(`The session folder was changed on another device: sessions are now kept in "${after.sessionFolder}".`);
  }
  await ctx.controller.refresh().catch(() => undefined);
}
