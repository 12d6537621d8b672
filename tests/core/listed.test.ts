import fc from "fast-check";
import { Listed } from "../../src/core/device-memory/listed";

describe("a folder's names as listed, with the writes since", () => {
  it("follows names created, replaced and removed, in the listing's order and then the new ones", () => {
    const listed = new Listed(["b.md", "a.md", "c.md"]);
    listed.add("a.md"); // replaced: still once, in its place
    listed.add("d.md");
    listed.delete("c.md");
    listed.delete("gone.md"); // never there
    expect(listed.all()).toEqual(["b.md", "a.md", "d.md"]);
    expect(listed.current(["a.md", "c.md"])).toEqual(["a.md", "d.md"]);
    expect(["a.md", "b.md", "c.md", "d.md", "gone.md"].map((n) => listed.has(n))).toEqual([
      true,
      true,
      false,
      true,
      false,
    ]);
    listed.add("c.md"); // back (after the set was made)
    listed.delete("d.md");
    expect(listed.all()).toEqual(["b.md", "a.md", "c.md"]);
  });

  it("says what a model of the folder says, whether a few names went or many", () => {
    const name = fc.constantFrom(...Array.from({ length: 24 }, (_, i) => `n${i}.md`));
    fc.assert(
      fc.property(
        fc.uniqueArray(name),
        fc.array(fc.tuple(fc.boolean(), name), { maxLength: 30 }),
        fc.uniqueArray(name),
        (listing, writes, some) => {
          const listed = new Listed(listing);
          const present = new Set(listing);
          const added: string[] = [];
          for (const [add, n] of writes) {
            if (add) listed.add(n);
            else listed.delete(n);
            if (listing.includes(n)) {
              if (add) present.add(n);
              else present.delete(n);
            } else if (add && !added.includes(n)) added.push(n);
            else if (!add && added.includes(n)) added.splice(added.indexOf(n), 1);
            // The listing's names still there, in its order, then those added since (in the order first added):
            // asked after every write, as a call does between its writes (all() keeps its answer until one).
            expect(listed.all()).toEqual([...listing.filter((x) => present.has(x)), ...added]);
          }
          const inOrder = listing.filter((n) => present.has(n));
          expect(listed.all()).toEqual([...inOrder, ...added]);
          const asked = some.filter((n) => listing.includes(n));
          expect(listed.current(asked)).toEqual([...asked.filter((n) => present.has(n)), ...added]);
        },
      ),
    );
  });

  it("says the same told of a run of names before a name, looking outside it for the later ones", () => {
    const name = fc.constantFrom(...Array.from({ length: 24 }, (_, i) => `n${String(i).padStart(2, "0")}.md`));
    fc.assert(
      fc.property(
        fc.uniqueArray(name),
        fc.nat(),
        name,
        fc.array(fc.tuple(fc.boolean(), name), { maxLength: 30 }),
        (listing, at, before, writes) => {
          // The longest run from `at` of names all before `before` (the older notes a summary vouched for).
          const from = listing.length === 0 ? 0 : at % listing.length;
          let to = from;
          while (to < listing.length && listing[to] < before) to++;
          const told = new Listed(listing, { from, to, before });
          const plain = new Listed(listing);
          for (const [add, n] of writes) {
            for (const l of [told, plain]) {
              if (add) l.add(n);
              else l.delete(n);
            }
            expect(told.all()).toEqual(plain.all());
          }
        },
      ),
    );
  });
});
