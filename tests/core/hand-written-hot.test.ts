/**
 * Invariant 10: a hot.md the tool did not write (no frontmatter, another palee_schema, frontmatter that does
 * not parse) keeps its text when the tool replaces it: the body is carried over, or the old text is copied
 * to a new file beside it first (start does both), and the operation says so.
 */
import { confirmedText, draftText, hotText } from "../support/builders";
import { harness } from "../support/fakes";
import { HOT, S, fields } from "../support/inspect";

const LAST = "S-20260813T100000-abcd";
const DRAFT = "DRAFT-S-0000abcd";
const KEPT = "palee/hot-kept-20260814-120000.md";

const MINE = "My own plan for the week:\n- ownership\n- borrowing\n";
const SCHEMA_2 = hotText({ palee_schema: 2 }, "Working memory of a newer version\n");
const CORRUPT = "---\nactive_topic: [unclosed\n---\nNotes under broken properties\n";

function vault(hot: string) {
  const h = harness({ at: "2026-08-14T12:00:00Z" });
  h.store.files.set(S(LAST), confirmedText({ session_id: LAST }, { summary: "Moves", next: "Lifetimes" }));
  h.store.files.set(HOT, hot);
  return h;
}

describe("hand-written text in hot.md", () => {
  it.each([
    ["without frontmatter", MINE, /no frontmatter/],
    ["with frontmatter that does not parse", CORRUPT, /frontmatter YAML does not parse/],
  ])("end keeps a hot.md %s in a copy before replacing it, and says so", async (_name, text, why) => {
    const { store, core } = vault(text);
    store.files.set(S(DRAFT), draftText({ session_id: DRAFT }, "notes\n"));
    const result = await core.end({ topic: "T-rust-ownership", summary: "Done" });
    expect(store.files.get(KEPT)).toBe(text);
    expect(result.warnings).toContainEqual(
      expect.stringMatching(
        new RegExp(`^kept the text of palee/hot\\.md \\(${why.source}.* in ${KEPT} before replacing it$`),
      ),
    );
    expect(fields(store, HOT)).toMatchObject({ palee_schema: 1, last_session: result.session.sessionId });
  });

  it("rebuild keeps a hot.md of another schema in a copy before replacing it", async () => {
    const { store, core } = vault(SCHEMA_2);
    const result = await core.rebuild();
    expect(store.files.get(KEPT)).toBe(SCHEMA_2);
    expect(result.warnings).toContainEqual(expect.stringContaining(`in ${KEPT} before replacing it`));
    expect(fields(store, HOT)).toMatchObject({ palee_schema: 1, last_session: LAST });
  });

  it("start carries a body without frontmatter over and keeps a copy, which the next end's body replaces", async () => {
    const { store, core } = vault(MINE);
    const result = await core.start({ topic: "T-rust-ownership" });
    expect(result.status).toBe("started");
    expect(store.files.get(HOT)?.endsWith(MINE)).toBe(true);
    expect(store.files.get(KEPT)).toBe(MINE);
    await core.end({ summary: "Done" });
    expect(store.files.get(HOT)).not.toContain("My own plan");
    expect(store.files.get(KEPT)).toBe(MINE);
  });

  it.each([
    ["corrupt", CORRUPT],
    ["of another palee_schema", SCHEMA_2],
  ])("start over a hot.md %s keeps its text in a copy and says so", async (_name, text) => {
    const { store, core } = vault(text);
    const result = await core.start({ topic: "T-rust-ownership" });
    expect(result.status === "started" && result.warnings).toContainEqual(
      expect.stringContaining(`in ${KEPT} before replacing it`),
    );
    expect(store.files.get(KEPT)).toBe(text);
    expect(fields(store, HOT)).toMatchObject({ palee_schema: 1, active_topic: "T-rust-ownership" });
  });

  it("end leaves a hot.md of another palee_schema alone (only start, resume and rebuild replace it)", async () => {
    const { store, core } = vault(SCHEMA_2);
    store.files.set(S(DRAFT), draftText({ session_id: DRAFT }, "notes\n"));
    await core.end({ topic: "T-rust-ownership" });
    expect(store.files.get(HOT)).toBe(SCHEMA_2);
    expect(store.files.has(KEPT)).toBe(false);
  });

  it("never overwrites an earlier copy: a second one gets the next free name", async () => {
    const { store, core } = vault(MINE);
    store.files.set(KEPT, "an earlier copy\n");
    await core.rebuild();
    expect(store.files.get(KEPT)).toBe("an earlier copy\n");
    expect(store.files.get("palee/hot-kept-20260814-120000-2.md")).toBe(MINE);
  });

  it("makes no copy of a hot.md the tool wrote, or of an empty one", async () => {
    for (const text of [hotText({ last_session: LAST }), "", "  \n"]) {
      const { store, core } = vault(text);
      store.files.set(S(DRAFT), draftText({ session_id: DRAFT }, "notes\n"));
      await core.end({ topic: "T-rust-ownership" });
      expect([...store.files.keys()].filter((p) => p.includes("hot-kept"))).toEqual([]);
    }
  });
});
