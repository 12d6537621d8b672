import type { App } from "obsidian";
import { TFile } from "obsidian";
import { describeRecorded, formatElapsed } from "../../core/time";
import { studiedSoFar } from "../ui/status-bar";
import type { FlowContext } from "./context";
import { LONG_NOTICE_MS, fail } from "./notices";
import { topicName } from "./topics";

export async function showStatus(ctx: FlowContext): Promise<void> {
  const { controller } = ctx;
  try {
    const open = await controller.refresh();
    if (!open) {
      ctx.notify("No session is open.");
      return;
    }
    const today = controller.today();
    const { session } = open;
    const topic = topicName(ctx, session.topicId, session.topicNote);
    ctx.notify(
      `${topic}: ${formatElapsed(studiedSoFar(open, controller.now()), true)} so far` +
        `${open.pausedMs === null ? "" : " (paused)"}\n` +
        `Started ${describeRecorded(session.startedAt, today)} on ${session.device ?? "unknown device"}\n` +
        `Last checkpoint ${describeRecorded(session.lastCheckpointAt, today)}`,
      LONG_NOTICE_MS,
    );
  } catch (error) {
    fail(ctx, "read the session status", error);
  }
}

export async function openSessionNote(ctx: FlowContext): Promise<void> {
  const open = ctx.controller.open;
  if (!open) {
    ctx.notify("No session is open.");
    return;
  }
  await openPath(ctx, `${ctx.controller.layout.sessions}/${open.session.draftId}.md`);
}

export async function openPath(ctx: FlowContext, path: string): Promise<void> {
  if (!(await openFile(ctx.app, path))) ctx.notify(`${path} does not exist (yet).`);
}

/** Opens the note at `path` in the current leaf; false when there is no such note. */
export async function openFile(app: App, path: string): Promise<boolean> {
  const file = app.vault.getFileByPath(path);
  if (!(file instanceof TFile)) return false;
  await app.workspace.getLeaf(false).openFile(file);
  return true;
}

/**
 * A session note was renamed. The open session's draft is only found under its own name (DRAFT-S-….md):
 * say so at once, rather than let the session end silently at the next checkpoint.
 */
export function noteRenamed(ctx: FlowContext, oldPath: string, newPath: string): void {
  const open = ctx.controller.open;
  if (!open || oldPath !== `${ctx.controller.layout.sessions}/${open.session.draftId}.md`) return;
  const { topicId, topicNote, draftId } = open.session;
  const topic = topicName(ctx, topicId, topicNote);
  ctx.notify(
    `The note of your open session on ${topic} was renamed to "${newPath}". PALEE Sessions only finds it as ` +
      `${draftId}.md: rename it back to keep the session (its notes are safe either way).`,
    LONG_NOTICE_MS,
  );
}
