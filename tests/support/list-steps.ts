/**
 * The steps the memo property tests (stats, study log, topic schedules) take on a list of sessions: an end (new
 * notes in), a note deleted, a note edited by hand. Each test adds steps of its own (the clock, an offset, a
 * setting) and checks the memo against the answer made without it after every step.
 */
import fc from "fast-check";

export type ListStep<Spec, Change> =
  { kind: "end"; specs: Spec[] } | { kind: "delete"; at: number } | { kind: "edit"; at: number; change: Change };

/**
 * The weighted arbitraries of the three list steps, for fc.oneof: ends six times as often as a deletion or an
 * edit, each end bringing 1 to `maxEnded` notes; `at` is taken modulo the list's length.
 */
export function listStepArbitraries<Spec, Change>(
  spec: fc.Arbitrary<Spec>,
  change: fc.Arbitrary<Change>,
  maxEnded: number,
): Array<fc.WeightedArbitrary<ListStep<Spec, Change>>> {
  return [
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant("end" as const),
        specs: fc.array(spec, { minLength: 1, maxLength: maxEnded }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("edit" as const), at: fc.nat(), change }) },
  ];
}

export function isListStep<Spec, Change>(step: { kind: string }): step is ListStep<Spec, Change> {
  return step.kind === "end" || step.kind === "delete" || step.kind === "edit";
}

/** How a test makes, orders and edits its sessions. */
export interface ListOf<T, Spec, Change> {
  make: (spec: Spec) => T;
  /** Sorts the list it is given (newest first) and returns it. */
  sort: (list: T[]) => T[];
  edit: (session: T, change: Change) => T;
}

/** The list after a list step, as a new array; a deletion or an edit of an empty list leaves it as it is. */
export function afterListStep<T, Spec, Change>(
  list: T[],
  step: ListStep<Spec, Change>,
  of: ListOf<T, Spec, Change>,
): T[] {
  if (step.kind === "end") return of.sort([...list, ...step.specs.map(of.make)]);
  if (list.length === 0) return list;
  const at = step.at % list.length;
  if (step.kind === "delete") return list.filter((_, i) => i !== at);
  return list.map((s, i) => (i === at ? of.edit(s, step.change) : s));
}
