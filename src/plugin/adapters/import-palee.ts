import type { DataAdapter } from "obsidian";
import { normalizePath } from "obsidian";
import { FileExistsError, UsageError } from "../../core/errors";
import { classifyRecord } from "../../core/records/frontmatter";
import { CONFIRMED_FILE_PATTERN, DRAFT_FILE_PATTERN } from "../../core/records/ids";
import type { Layout } from "../../core/records/layout";
import { sessionPath } from "../../core/records/layout";
import type { SessionStore } from "../../core/ports";
import type { Skipped } from "../../core/records/records";

/** The seed tool's hidden folder: Obsidian does not index it, so only the adapter can see it. */
export const LEGACY_FOLDER = ".palee";

/** Why a file was not copied: what the notice groups by. */
export type SkipKind = "already-imported" | "differs" | "already-saved" | "derived" | "not-a-session";

export interface ImportReport {
  copied: string[];
  skipped: Array<{ path: string; reason: string; kind: SkipKind }>;
}

/**
 * Copies the session notes of a `.palee/` folder into the session folder, through the store (so the copies
 * are indexed and synced). Idempotent: a file already there with the same content is skipped; a different
 * file with the same name is left alone on both sides. hot.md and index.md are not copied: they are derived,
 * and the caller rebuilds them. Drafts already absorbed by a confirmed session (`absorbed`: draft ID →
 * session ID) are not copied. Nothing in `.palee/` is changed or removed.
 */
export async function importPaleeFolder(
  adapter: DataAdapter,
  store: SessionStore,
  layout: Layout,
  absorbed: ReadonlyMap<string, string> = new Map(),
): Promise<ImportReport> {
  const source = normalizePath(LEGACY_FOLDER);
  if (!(await adapter.exists(source))) throw new UsageError(`there is no ${LEGACY_FOLDER} folder in this vault`);
  const report: ImportReport = { copied: [], skipped: [] };

  const top = await adapter.list(source);
  for (const path of top.files) {
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (name === "hot.md" || name === "index.md") {
      report.skipped.push({ path, reason: "derived view, rebuilt from the sessions", kind: "derived" });
    } else report.skipped.push({ path, reason: "not a session file", kind: "not-a-session" });
  }
  for (const folder of top.folders) {
    if (folder === `${source}/sessions`) continue;
    report.skipped.push({ path: folder, reason: "not the sessions folder", kind: "not-a-session" });
  }

  const sessionsFolder = `${source}/sessions`;
  if (!(await adapter.exists(sessionsFolder))) return report;
  const inner = await adapter.list(sessionsFolder);
  for (const folder of inner.folders) {
    report.skipped.push({ path: folder, reason: "a folder inside sessions", kind: "not-a-session" });
  }
  // Drafts absorbed by the confirmed notes being imported are finished business too (a crash in an end of
  // the old tool can leave both).
  const savedIn = new Map(absorbed);
  const texts = new Map<string, string>();
  for (const path of inner.files) {
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (!CONFIRMED_FILE_PATTERN.test(name) || DRAFT_FILE_PATTERN.test(name)) continue;
    const text = await adapter.read(path);
    texts.set(path, text);
    const read = classifyRecord(text);
    if (read.state !== "ok" || !Array.isArray(read.fields.absorbed_drafts)) continue;
    for (const id of read.fields.absorbed_drafts) {
      if (typeof id === "string" && !savedIn.has(id)) savedIn.set(id, name.slice(0, -3));
    }
  }

  for (const path of [...inner.files].sort()) {
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (!DRAFT_FILE_PATTERN.test(name) && !CONFIRMED_FILE_PATTERN.test(name)) {
      const reason = "not a session file name (S-….md or DRAFT-S-….md)";
      report.skipped.push({ path, reason, kind: "not-a-session" });
      continue;
    }
    const saved = DRAFT_FILE_PATTERN.test(name) ? savedIn.get(name.slice(0, -3)) : undefined;
    if (saved) {
      // A draft that a confirmed session already absorbed is finished business: copying it back would only
      // have it offered again, then moved to the trash.
      report.skipped.push({ path, reason: `already saved in ${saved}`, kind: "already-saved" });
      continue;
    }
    const content = texts.get(path) ?? (await adapter.read(path));
    const target = sessionPath(layout, name);
    const existing = await store.read(target);
    if (existing !== null) {
      report.skipped.push(
        existing === content
          ? { path, reason: "already imported", kind: "already-imported" }
          : { path, reason: `${target} exists with different content; left both alone`, kind: "differs" },
      );
      continue;
    }
    try {
      await store.create(target, content);
      report.copied.push(target);
    } catch (error) {
      if (!(error instanceof FileExistsError)) throw error;
      report.skipped.push({ path, reason: `${target} appeared meanwhile; left both alone`, kind: "differs" });
    }
  }
  return report;
}

/**
 * The import's notice: counts by reason, naming the files a learner may need to look at, and every file the
 * rebuild after the copy could not read as a session (`unread`), so "Imported 1 file" never hides that no
 * session appeared.
 */
export function describeImport(report: ImportReport, into: string, unread: readonly Skipped[] = []): string {
  const copied = `Imported ${report.copied.length} file${report.copied.length === 1 ? "" : "s"} into ${into}.`;
  const notRead = unread.length
    ? ` Not read as sessions: ${unread.map((s) => `${s.path} (${s.reason})`).join("; ")}.`
    : "";
  if (report.skipped.length === 0) return copied + notRead;
  const of = (kind: SkipKind) => report.skipped.filter((s) => s.kind === kind);
  const named = (items: ImportReport["skipped"]) =>
    ` (${items
      .slice(0, 3)
      .map((s) => s.path)
      .join(", ")}${items.length > 3 ? ` and ${items.length - 3} more` : ""})`;
  const parts: string[] = [];
  const already = of("already-imported");
  if (already.length) parts.push(`${already.length} already imported`);
  const saved = of("already-saved");
  if (saved.length) parts.push(`${saved.length} draft${saved.length === 1 ? "" : "s"} already saved`);
  const differs = of("differs");
  if (differs.length) {
    const why = "left alone because a different file of the same name is already there";
    parts.push(`${differs.length} ${why}${named(differs)}`);
  }
  const derived = of("derived");
  if (derived.length) parts.push(`${derived.length} derived view${derived.length === 1 ? "" : "s"}, rebuilt instead`);
  const other = of("not-a-session");
  if (other.length) parts.push(`${other.length} not a session file${named(other)}`);
  return `${copied} Skipped ${report.skipped.length}: ${parts.join("; ")}.${notRead}`;
}
