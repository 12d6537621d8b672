import type { ConfirmedSession } from "../records/records";
import type { Digest } from "./names-digest";
import type { KnownOlder } from "./checked-indexes";
import type { OlderKept } from "./older-fields";
import { keptNote } from "./older-fields";
import type { Covered, OlderTotals } from "./older-totals";
import { coveredBy, extendOlder, foldOlder, splitAt } from "./older-totals";
import { firstAtOrAfter } from "./folder-summary";

/*
 * The older notes' totals in one call (older-totals.ts): loaded when a call first asks (stats, goal, year), and
 * what the call saves afterwards: the totals folded from the older notes' records when none held (the call read or
 * loaded every older note's record, older-fields.ts), or the totals that held taken forward by the notes that
 * crossed the split since (this call read them). Pure: the face loads and saves (the CLI: open-memory.ts).
 */

/** A listing's older notes as the folder summary vouched for them, and its other names; null when it did not. */
export type Vouching = { known: KnownOlder; others: readonly string[] } | null;

/** The older notes' records as this call has them (OlderFields.keptNow), and when they were read. */
export type KeptNow = () => { kept: OlderKept; readAt: number } | null;

export class OlderTotalsPart {
  /** undefined: not loaded yet; null: none to trust. */
  private totals: OlderTotals | null | undefined = undefined;
  /** What this call asked: nothing, the totals held (covered), or none held (missing). */
  private asked: "no" | "covered" | "missing" = "no";
  private covered: Covered | null = null;
  /** The notes past the totals' split this call read: each one's session when older-fields keeps such, else null. */
  private readonly crossed = new Map<string, ConfirmedSession | null>();
  private began = 0;

  constructor(
    /** The session folder (Layout.sessions), vault-relative. */
    readonly folder: string,
    /** Reads the totals (the CLI: the file, once), null when there are none to trust at the call's beginning. */
    private readonly load: () => OlderTotals | null,
    private readonly digest: Digest,
  ) {}

  begin(now: number): void {
    this.totals = undefined;
    this.asked = "no";
    this.covered = null;
    this.crossed.clear();
    this.began = now;
  }

  /**
   * The totals that hold for `names` (the folder's latest listing), or null; `vouched`: its older notes as the
   * folder summary vouched for them, and its other names (RememberingStore.olderNotesIn).
   */
  coveredFor(names: readonly string[], vouched: Vouching): Covered | null {
    if (this.totals === undefined) this.totals = this.load();
    const totals = this.totals;
    const covered =
      totals === null || totals.readAt > this.began ? null : coveredBy(totals, names, this.digest, vouched);
    this.covered = covered;
    this.asked = this.covered === null ? "missing" : "covered";
    return this.covered;
  }

  /** The call read the confirmed note `name` as `session` (null: not one older-fields keeps). */
  read(name: string, session: ConfirmedSession | null): void {
    const covered = this.covered;
    if (covered === null || name < covered.totals.split) return;
    const note = session === null || session.bodyPending ? null : keptNote(session);
    this.crossed.set(name, note === null ? null : { ...(session as ConfirmedSession), body: "", bodyPending: true });
  }

  /** What to save after the call, given the folder's names now and the older notes' records it has; or null. */
  toSave(names: readonly string[], keptNow: KeptNow, known: KnownOlder | null): OlderTotals | null {
    const at = { folder: this.folder, now: this.began, split: splitAt(this.began) };
    if (this.asked === "covered" && this.covered !== null) {
      const { totals } = this.covered;
      // Most calls find no note crossed since: told by a binary search (in another order it may miss one, which
      // is then read by each call until one finds it: speed, never an answer).
      const next = names[firstAtOrAfter(names, totals.split)];
      if (next === undefined || !(next < at.split)) return null;
      return extendOlder(totals, at, names, (name) => this.crossed.get(name), this.digest, known);
    }
    if (this.asked !== "missing") return null;
    const now = keptNow();
    if (now === null) return null;
    const { kept, readAt } = now;
    const sessionOf = (name: string): ConfirmedSession | undefined => kept.session(name, `${this.folder}/${name}`);
    return foldOlder({ ...at, split: kept.split, readAt }, names, sessionOf, this.digest, known);
  }
}
