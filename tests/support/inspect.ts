/** Looking into an in-memory vault from tests: the default layout's paths and what the session files hold. */
import { classifyRecord } from "../../src/core/records/frontmatter";
import type { MemoryStore } from "./memory-store";

export const HOT = "palee/hot.md";
export const INDEX = "palee/index.md";
/** The path of a session file (confirmed or draft) by its ID. */
export const S = (id: string): string => `palee/sessions/${id}.md`;

/** The frontmatter of an ok record; throws with the read state otherwise. */
export function fields(store: MemoryStore, path: string): Record<string, unknown> {
  const read = classifyRecord(store.files.get(path) ?? null);
  if (read.state !== "ok") throw new Error(`${path} is ${read.state}`);
  return read.fields;
}

export function confirmedPaths(store: MemoryStore): string[] {
  return [...store.files.keys()].filter((p) => /\/sessions\/S-/.test(p)).sort();
}

export function draftPaths(store: MemoryStore): string[] {
  return [...store.files.keys()].filter((p) => /\/sessions\/DRAFT-S-/.test(p)).sort();
}
