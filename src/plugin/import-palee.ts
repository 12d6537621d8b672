import type { DataAdapter } from "obsidian";
import { normalizePath } from "obsidian";
import { FileExistsError } from "../core/errors";
import { CONFIRMED_FILE_PATTERN, DRAFT_FILE_PATTERN } from "../core/ids";
import type { Layout } from "../core/layout";
import { sessionPath } from "../core/layout";
import type { SessionStore } from "../core/ports";

/** The seed tool's hidden folder (SPEC §9): Obsidian does not index it, so only the adapter can see it. */
export const LEGACY_FOLDER = ".palee";

export interface ImportReport {
  copied: string[];
  skipped: Array<{ path: string; reason: string }>;
}

/**
 * Copies the session notes of a `.palee/` folder into the session folder, through the store (so the copies
 * are indexed and synced). Idempotent: a file already there with the same content is skipped; a different
 * file with the same name is left alone on both sides. hot.md and index.md are not copied: they are derived,
 * and the caller rebuilds them. Nothing in `.palee/` is changed or removed.
 */
export async function importPaleeFolder(adapter: DataAdapter, store: SessionStore, layout: Layout): Promise<ImportReport> {
  const source = normalizePath(LEGACY_FOLDER);
  if (!(await adapter.exists(source))) throw new Error(`there is no ${LEGACY_FOLDER} folder in this vault`);
  const report: ImportReport = { copied: [], skipped: [] };

  const top = await adapter.list(source);
  for (const path of top.files) {
    const name = path.slice(path.lastIndexOf("/") + 1);
    const reason = name === "hot.md" || name === "index.md" ? "derived view, rebuilt from the sessions" : "not a session file";
    report.skipped.push({ path, reason });
  }
  for (const folder of top.folders) {
    if (folder !== `${source}/sessions`) report.skipped.push({ path: folder, reason: "not the sessions folder" });
  }

  const sessionsFolder = `${source}/sessions`;
  if (!(await adapter.exists(sessionsFolder))) return report;
  const inner = await adapter.list(sessionsFolder);
  for (const folder of inner.folders) report.skipped.push({ path: folder, reason: "a folder inside sessions" });
  for (const path of [...inner.files].sort()) {
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (!DRAFT_FILE_PATTERN.test(name) && !CONFIRMED_FILE_PATTERN.test(name)) {
      report.skipped.push({ path, reason: "not a session file name (S-….md or DRAFT-S-….md)" });
      continue;
    }
    const content = await adapter.read(path);
    const target = sessionPath(layout, name);
    const existing = await store.read(target);
    if (existing !== null) {
      report.skipped.push({ path, reason: existing === content ? "already imported" : `${target} exists with different content; left both alone` });
      continue;
    }
    try {
      await store.create(target, content);
      report.copied.push(target);
    } catch (error) {
      if (!(error instanceof FileExistsError)) throw error;
      report.skipped.push({ path, reason: `${target} appeared meanwhile; left both alone` });
    }
  }
  return report;
}
