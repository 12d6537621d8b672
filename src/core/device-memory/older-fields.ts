import { plainSection } from "../records/brief";
import { classifyRecord } from "../records/frontmatter";
import type { ConfirmedSession } from "../records/records";
import { interpretConfirmed } from "../records/records";
import { formatUtcCompact, notingOffset } from "../time";
import { kindOf } from "../scan/names";
import { KEPT_SPAN_MS, keptRecordOf, sessionOf } from "./kept-fields";
import type { KeptRecord } from "./kept-fields";

export type { KeptRecord } from "./kept-fields";

/*
 * The records of the session folder's older confirmed notes as a device last read them (issues 37/38;
 * docs/performance.md "Older notes kept by name"): what a full scan makes of each note without its body, so that
 * next, context, goal, year and stats list the folder and read only the recent notes, not the history. Pure: the
 * face keeps the notes between its processes (the CLI: src/cli/device-memory/older-file.ts).
 *
 * A record is kept only when it does not depend on this device's time zone (interpretConfirmed never asked for
 * the local offset: every timestamp read carries its own), so it is what reading the note gives anywhere, its
 * warnings included; any other note is read each time.
 *
 * Sound because a confirmed note is create-only (written whole under a new name, never rewritten): a name listed
 * now has the text it had when it was read. So a note is answered only while its name is in the latest listing,
 * and the kept notes are never carried into a new file: a file is made only of one call's own reads, and so is
 * never older than its envelope says (a day at most), which bounds the blind spot of a rewrite in place.
 */

/** The sections whose presence is kept, one bit each (bit i: SECTIONS[i] has text, as plainSection reads it). */
export const SECTIONS = ["Next action", "Recall"] as const;

/** One older note as kept: its record and which SECTIONS it has. */
export interface OlderNote {
  readonly record: Readonly<KeptRecord>;
  readonly sections: number;
}

/**
 * What a device keeps of the older notes: the confirmed notes named before `split` that read as kept records, by
 * name. An interface, so that the face may answer from its file's columns without making every note an object.
 */
export interface OlderKept {
  readonly split: string;
  /** The session of the kept note `name` at `path`, its body pending (sessionOf), or undefined. */
  session(name: string, path: string): ConfirmedSession | undefined;
  /** The SECTIONS bits of the kept note `name`, or undefined. */
  sections(name: string): number | undefined;
  /** Every kept note's name. */
  names(): Iterable<string>;
  /** Every kept note, by name. */
  notes(): ReadonlyMap<string, OlderNote>;
}

/** The kept notes of a map (as a call learns them). */
export function keptOf(split: string, notes: ReadonlyMap<string, OlderNote>): OlderKept {
  return {
    split,
    session: (name, path) => {
      const note = notes.get(name);
      return note && sessionOf(path, note.record);
    },
    sections: (name) => notes.get(name)?.sections,
    names: () => notes.keys(),
    notes: () => notes,
  };
}

/** What a call saves: notes read afresh (`at`: the call's beginning), or a kept file without the names gone. */
export type OlderSave = { notes: OlderKept; at: number } | { notes: OlderKept; at: "as read" };

/**
 * The note at `path` read as `text`, as kept: its record when the note is a valid confirmed session whose reading
 * never asked for the local offset, else null (read each time).
 */
export function keptNoteOf(path: string, text: string): OlderNote | null {
  const read = classifyRecord(text);
  if (read.state !== "ok") return null;
  const zone = notingOffset();
  const result = interpretConfirmed(path, read, zone.offsetAt);
  return zone.asked() || !("record" in result) ? null : keptNote(result.record);
}

/** A session as read (its body there), as kept: null when it holds what JSON does not keep as it is. */
export function keptNote(session: ConfirmedSession): OlderNote | null {
  const record = keptRecordOf(session);
  return record && { record, sections: sectionsOf(session.body) };
}

/**
 * Each of SECTIONS' headings as it must appear in a body that has it (session-note.ts extractSection: a line that
 * is "## <heading>" in any case): a body without it is passed over without being split into lines.
 */
const HEADINGS = SECTIONS.map((heading) => new RegExp(`## ${heading}`, "i"));

/** The SECTIONS bits of a note's body. */
export function sectionsOf(body: string): number {
  let bits = 0;
  SECTIONS.forEach((heading, i) => {
    if (HEADINGS[i].test(body) && plainSection(body, heading) !== null) bits |= 1 << i;
  });
  return bits;
}

/** The older notes of one call: the kept ones (loaded when first asked), and those it read while none were kept. */
export class OlderFields {
  /** undefined: not loaded yet; null: none kept (or not to be trusted). */
  private kept: OlderKept | null | undefined = undefined;
  private readonly learned = new Map<string, OlderNote>();
  /** The older names this call read (kept or not: a damaged note is read every time). */
  private readonly seen = new Set<string>();
  private gone = false;
  /** Names this call found written since a bound (changedAmong): read, never answered from what is kept. */
  private readonly written = new Set<string>();
  private split = "";
  private began = 0;

  constructor(
    /** The session folder (Layout.sessions), vault-relative. */
    readonly folder: string,
    /** Reads the kept notes (the CLI: the file, once); null when there are none to trust. */
    private readonly load: () => OlderKept | null,
  ) {}

  /** Starts afresh at `now`: the notes named before KEPT_SPAN_MS ago are the older ones. */
  begin(now: number): void {
    this.kept = undefined;
    this.learned.clear();
    this.seen.clear();
    this.written.clear();
    this.gone = false;
    this.began = now;
    this.split = `S-${formatUtcCompact(now - KEPT_SPAN_MS)}`;
  }

  private loaded(): OlderKept | null {
    if (this.kept === undefined) this.kept = this.load();
    return this.kept;
  }

  /** The name in the folder that `path` is, when it is an older confirmed note's; else null. */
  nameOf(path: string): string | null {
    const name = this.keptName(path);
    return name !== null && kindOf(name) === "confirmed" ? name : null;
  }

  /**
   * The name in the folder that `path` is, when it is before the split: all a kept note's name needs, as only
   * confirmed notes' names are kept (a scan asks thousands: no pattern is tested here).
   */
  keptName(path: string): string | null {
    const prefix = this.folder.length + 1;
    if (path.length <= prefix || path.charCodeAt(prefix - 1) !== 47 || !path.startsWith(this.folder)) return null;
    const name = path.slice(prefix);
    return name < this.split && !name.includes("/") ? name : null;
  }

  /**
   * What is kept (loaded when first asked) for `name`, an older note's name listed now, or null: also when this
   * call found its file written since a bound (a rewrite in place shows so whenever the note times are asked).
   */
  keptFor(name: string): OlderKept | null {
    return this.written.has(name) ? null : this.loaded();
  }

  /** keptFor, only when this call already loaded what is kept (a section asked is not worth the whole file). */
  loadedFor(name: string): OlderKept | null {
    return this.kept === undefined ? null : this.keptFor(name);
  }

  /** The SECTIONS bits of `name` as loaded (while nothing was written over it) or read by this call; else undefined. */
  bitsOf(name: string): number | undefined {
    if (this.written.has(name)) return undefined;
    return this.kept ? this.kept.sections(name) : this.learned.get(name)?.sections;
  }

  /** Files this call found written since a bound (RememberingStore.changedAmong's answer). */
  wasWritten(names: readonly string[]): void {
    for (const name of names) if (name < this.split) this.written.add(name);
  }

  /**
   * The full scan read `name` as `session` (DeviceMemory.sessionRead; null: not one to keep): learned when this
   * call found nothing kept, as the first of a file to save. A call that never asked for a kept note learns
   * nothing.
   */
  learn(name: string, session: ConfirmedSession | null): void {
    if (this.kept !== null) return;
    this.seen.add(name);
    this.learned.delete(name);
    const note = session === null || session.bodyPending ? null : keptNote(session);
    if (note !== null) this.learned.set(name, note);
  }

  /** Before a write of `name`: what was kept or read of it no longer stands. */
  forget(name: string): void {
    this.seen.delete(name);
    this.learned.delete(name);
    const kept = this.kept;
    if (kept && kept.sections(name) !== undefined) {
      this.kept = keptOf(kept.split, new Map([...kept.notes()].filter(([n]) => n !== name)));
      this.gone = true;
    }
  }

  /**
   * What to save, given the folder's confirmed names now (`names`, a listing with this call's writes): the notes
   * read when this call read every older one (none was kept), or the kept notes less those whose names are gone,
   * dated as they were read; null for nothing.
   */
  toSave(names: readonly string[], listed: (name: string) => boolean): OlderSave | null {
    const kept = this.kept;
    if (kept === undefined) return null;
    if (kept === null) {
      const older = names.filter((name) => name < this.split && kindOf(name) === "confirmed");
      if (older.length === 0 || !older.every((name) => this.seen.has(name))) return null;
      return { notes: keptOf(this.split, this.learned), at: this.began };
    }
    let gone = this.gone;
    for (const name of kept.names()) {
      if (gone) break;
      gone = !listed(name);
    }
    if (!gone) return null;
    const left = [...kept.notes()].filter(([name]) => listed(name));
    return { notes: keptOf(kept.split, new Map(left)), at: "as read" };
  }

  /**
   * What is kept of the older notes as this call has them (older-totals-part.ts folds them): toSave's, else the
   * notes loaded, dated as they were read; null when the call neither loaded them nor read every one.
   */
  keptNow(names: readonly string[], listed: (name: string) => boolean): OlderSave | null {
    const kept = this.kept;
    const now = this.toSave(names, listed) ?? (kept ? { notes: kept, at: "as read" } : null);
    if (now === null || this.written.size === 0) return now;
    // A note this call found written since a bound is not answered from what is kept (keptFor): nor folded.
    const { notes } = now;
    const written = this.written;
    const session = (name: string, path: string) => (written.has(name) ? undefined : notes.session(name, path));
    const sections = (name: string) => notes.sections(name);
    return {
      ...now,
      notes: { split: notes.split, session, sections, names: () => notes.names(), notes: () => notes.notes() },
    };
  }
}
