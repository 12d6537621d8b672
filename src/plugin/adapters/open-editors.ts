import type { App, TFile } from "obsidian";
import { MarkdownView } from "obsidian";

/**
 * Notes open in Obsidian's editor. The editor saves at most every 2 s (`requestSave`), so a file on disk can
 * be behind what the learner typed: it is saved before the store reads it, and a write to it goes through
 * the editor, so the cursor stays and the typing is never overwritten (contract §5, fidelity to the app).
 */
export function editorsOf(app: App, file: TFile): MarkdownView[] {
  const views: MarkdownView[] = [];
  app.workspace.iterateAllLeaves((leaf) => {
    const view = leaf.view;
    if (view instanceof MarkdownView && view.file?.path === file.path) views.push(view);
  });
  return views;
}

/**
 * Saves every editor showing the file (a view with nothing unsaved writes nothing). Without one, nothing is
 * awaited: scans read thousands of files, almost none of them open.
 */
export function saveEditors(app: App, file: TFile): Promise<MarkdownView[]> | MarkdownView[] {
  const views = editorsOf(app, file);
  return views.length === 0 ? views : saveAll(views);
}

async function saveAll(views: MarkdownView[]): Promise<MarkdownView[]> {
  for (const view of views) await view.save();
  return views;
}

/**
 * Turns `from` into `to` in the editor by replacing only the part that differs (for a checkpoint: the
 * frontmatter lines), then saves it. The caller has checked that the editor holds `from`.
 */
export async function writeThroughEditor(view: MarkdownView, from: string, to: string): Promise<void> {
  let start = 0;
  const shortest = Math.min(from.length, to.length);
  while (start < shortest && from[start] === to[start]) start++;
  let tail = 0;
  while (tail < shortest - start && from[from.length - 1 - tail] === to[to.length - 1 - tail]) tail++;
  const { editor } = view;
  editor.replaceRange(
    to.slice(start, to.length - tail),
    editor.offsetToPos(start),
    editor.offsetToPos(from.length - tail),
  );
  await view.save();
}
