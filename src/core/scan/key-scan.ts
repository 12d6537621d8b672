import type { Layout } from "../records/layout";
import { sessionPath } from "../records/layout";
import type { SessionStore } from "../ports";
import type { ConfirmedSession, Skipped } from "../records/records";
import { oneFilePerId, scanOf } from "./assemble";
import type { NameKind } from "./names";
import { kindOf } from "./names";
import { readDrafts, readNotes } from "./read";
import { placeholdersSkipped, subfolderNotes } from "./strays";

/** One note as a key scan found it: enough to read it again and know it is the same note. */
export interface NoteKey {
  sessionId: string;
  path: string;
  startedMs: number;
}

/** How many notes are read (and let go) at a time: few, so that no record lives long enough to be promoted. */
const NOTES_AT_A_TIME = 8;

/**
 * The confirmed notes a key scan keeps, without an object per note: the listing's own names, each note's start in
 * a typed array, and its session_id only where it is not its file name (`<session_id>.md`, almost every note).
 */
export class NoteKeys {
  readonly starts: Float64Array;
  /** 1: a usable note, kept; `choose` said yes. 2: kept, not chosen. 0: skipped, or the losing copy of an ID. */
  readonly state: Uint8Array;
  /** The session_ids that differ from their notes' names, by index. */
  readonly odd = new Map<number, string>();

  constructor(
    private readonly layout: Layout,
    readonly names: readonly string[],
  ) {
    this.starts = new Float64Array(names.length);
    this.state = new Uint8Array(names.length);
  }

  sessionId(i: number): string {
    return this.odd.get(i) ?? this.names[i].slice(0, -3);
  }

  key(i: number): NoteKey {
    return { sessionId: this.sessionId(i), path: sessionPath(this.layout, this.names[i]), startedMs: this.starts[i] };
  }

  /** The chosen notes kept, oldest first, ties by session_id: the export's order (insight/export.ts oldestFirst). */
  chosenOldestFirst(): number[] {
    const chosen: number[] = [];
    for (let i = 0; i < this.state.length; i++) if (this.state[i] === 1) chosen.push(i);
    return chosen.sort((a, b) => {
      if (this.starts[a] !== this.starts[b]) return this.starts[a] - this.starts[b];
      const [x, y] = [this.sessionId(a), this.sessionId(b)];
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }
}

/**
 * A full scan that keeps a key per confirmed note instead of its record (issue 36: an export in memory that does
 * not grow with the history's text): each note is read and interpreted as scanSessions reads it, `choose` is asked
 * of its record, and only its start and whether it was chosen are kept. The notes kept are the ones scanSessions
 * keeps (one file per session_id, by assemble's own rule, oneFilePerId); `skipped` is the scan's own, in the same
 * order. Never writes.
 */
export async function scanKeys(
  store: SessionStore,
  layout: Layout,
  offsetAt: (at: number) => number,
  now: number,
  choose: (session: ConfirmedSession) => boolean,
): Promise<{ keys: NoteKeys; skipped: Skipped[] }> {
  const names: Record<NameKind, string[]> = { draft: [], confirmed: [], other: [], placeholder: [], ignored: [] };
  for (const name of await store.list(layout.sessions)) names[kindOf(name)].push(name);
  const keys = new NoteKeys(layout, names.confirmed);
  const skipped: Skipped[] = [];
  for (let at = 0; at < keys.names.length; at += NOTES_AT_A_TIME) {
    const read = await readNotes(store, layout, offsetAt, keys.names.slice(at, at + NOTES_AT_A_TIME));
    for (const [name, outcome] of read) {
      if ("reason" in outcome) {
        skipped.push(outcome);
        continue;
      }
      const i = keys.names.indexOf(name, at);
      keys.starts[i] = outcome.startedMs;
      keys.state[i] = choose(outcome) ? 1 : 2;
      if (`${outcome.sessionId}.md` !== name) keys.odd.set(i, outcome.sessionId);
    }
  }
  skipped.push(...copiesDropped(keys));
  const drafts = await readDrafts(store, layout, offsetAt, names.draft, now);
  const strays = [...placeholdersSkipped(layout, names.placeholder), ...(await subfolderNotes(store, layout))];
  const assembled = { confirmed: [], skipped, warnings: [] };
  return { keys, skipped: scanOf(layout, assembled, drafts, names.other, strays).skipped };
}

/**
 * One file per session_id among the kept notes (the losers' state set to 0), and why each other was dropped.
 * Notes named after their own session_id have distinct IDs (file names are distinct), so a session_id is
 * claimed twice only where one of its claimants is odd: only those are grouped, with the note named after it.
 */
function copiesDropped(keys: NoteKeys): Skipped[] {
  if (keys.odd.size === 0) return [];
  const groups = new Map<string, number[]>();
  for (const [i, id] of keys.odd) groups.set(id, [...(groups.get(id) ?? []), i]);
  const byName = keys.odd.size > 16 ? new Map(keys.names.map((name, i) => [name, i])) : null;
  const skipped: Skipped[] = [];
  for (const [id, odd] of groups) {
    const own = byName ? (byName.get(`${id}.md`) ?? -1) : keys.names.indexOf(`${id}.md`);
    const members = own >= 0 && keys.state[own] !== 0 && !keys.odd.has(own) ? [own, ...odd] : odd;
    if (members.length < 2) continue;
    const result = oneFilePerId(members.map((i) => ({ ...keys.key(i), i })));
    for (const lost of members.filter((i) => !result.kept.some((k) => k.i === i))) keys.state[lost] = 0;
    skipped.push(...result.skipped);
  }
  return skipped;
}
