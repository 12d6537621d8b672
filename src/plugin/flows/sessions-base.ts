/**
 * `create-sessions-base` (contract §4a Bases, §5): writes `<folder>/sessions.base` once and opens it. Bases
 * arrived in Obsidian 1.9, but the file groups by topic and sums minutes, which Bases can do since 1.10: an
 * older app would show it broken, so there the command refuses, says why, and opens nothing.
 */
import { requireApiVersion } from "obsidian";
import { FileExistsError, errorMessage } from "../../core/errors";
import { BASES_MIN_VERSION, renderSessionsBase } from "../../core/formats/bases";
import type { FlowContext } from "./context";
import { openFile } from "./open-session";

const BASE_NOTICE_MS = 10_000;

/** Whether this app can show the sessions base (grouping and summaries). */
export const basesSupported = (): boolean => requireApiVersion(BASES_MIN_VERSION);

/** Writes `<folder>/sessions.base` once; when it exists (the learner may have edited it), opens it as it is. */
export async function createSessionsBase(ctx: FlowContext): Promise<string | null> {
  const { app, controller, store } = ctx;
  const path = `${controller.layout.folder}/sessions.base`;
  if (!basesSupported()) {
    ctx.notify(
      `The sessions base needs Obsidian ${BASES_MIN_VERSION} or later (Bases with grouping and summaries); ` +
        `this app is older, so nothing was created or opened. Update Obsidian, then run the command again.`,
      BASE_NOTICE_MS,
    );
    return null;
  }
  try {
    let created = false;
    if (!app.vault.getFileByPath(path)) {
      try {
        await store.create(path, renderSessionsBase(controller.layout.sessions));
        created = true;
      } catch (error) {
        if (!(error instanceof FileExistsError)) throw error;
      }
    }
    const opened = await openFile(app, path);
    if (created) ctx.notify(`Created ${path} (open it with the Bases core plugin enabled).`, BASE_NOTICE_MS);
    else ctx.notify(opened ? `Opened ${path}.` : `${path} exists.`, BASE_NOTICE_MS);
    return path;
  } catch (error) {
    console.error("PALEE Sessions: sessions base", error);
    ctx.notify(`Could not create ${path}: ${errorMessage(error)}`, BASE_NOTICE_MS);
    return null;
  }
}
