import { Listed } from "../../src/core/scan/listed";

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
});
