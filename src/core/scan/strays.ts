/**
 * Session files the scan cannot count, named so they never vanish without a word: iCloud placeholders of
 * session files not downloaded yet, and session notes moved into a subfolder of sessions/ (only the files
 * directly inside it are sessions, contract §2). Never writes.
 */
import type { Layout } from "../records/layout";
import { sessionPath } from "../records/layout";
import type { SessionStore } from "../ports";
import type { Skipped } from "../records/records";
import { NOT_DOWNLOADED, kindOf } from "./names";

/** How deep below sessions/ moved notes are looked for, and how many folders at most (a huge tree is cut). */
const MAX_DEPTH = 4;
const MAX_FOLDERS = 200;

export function placeholdersSkipped(layout: Layout, names: Iterable<string>): Skipped[] {
  return [...names].map((name) => ({ path: sessionPath(layout, name), reason: NOT_DOWNLOADED }));
}

/** Every draft or confirmed note in a subfolder of sessions/ (breadth first, bounded), one entry each. */
export async function subfolderNotes(store: SessionStore, layout: Layout): Promise<Skipped[]> {
  const reason =
    `in a subfolder of ${layout.sessions}/, so list, index.md and stats do not count it: ` +
    `move it back into ${layout.sessions}/`;
  const found: Skipped[] = [];
  // Dot-folders are a sync tool's or the system's (e.g. .stversions keeps old copies), not moved notes.
  const inside = async (folder: string): Promise<string[]> =>
    (await store.folders(folder)).filter((name) => !name.startsWith(".")).map((name) => `${folder}/${name}`);
  let level = await inside(layout.sessions);
  let visited = 0;
  for (let depth = 1; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      if (visited++ >= MAX_FOLDERS) return found;
      for (const name of await store.list(folder)) {
        const kind = kindOf(name);
        if (kind === "draft" || kind === "confirmed") found.push({ path: `${folder}/${name}`, reason });
      }
      next.push(...(await inside(folder)));
    }
    level = next;
  }
  return found;
}
