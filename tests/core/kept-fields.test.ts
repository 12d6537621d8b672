/**
 * The recent notes' frontmatter kept by their files' identities (device-memory/kept-fields.ts): answered only while
 * the identity holds, learned from reads with the identity taken before them, forgotten by writes.
 */
import { KEPT_SPAN_MS, KeptFields, PREPARED_MS, isPlainJson } from "../../src/core/device-memory/kept-fields";
import { keepingFields } from "../support/device-memory";
import { formatUtcCompact } from "../../src/core/time";
import { MemoryStore } from "../support/memory-store";
import { classifyRecord } from "../../src/core/records/frontmatter";
import { interpretConfirmed } from "../../src/core/records/records";
import { confirmedFromCache, readConfirmed } from "../../src/core/scan/cached";

const FOLDER = "palee/sessions";
const NOW = Date.parse("2026-12-02T04:00:00Z");
const DAY = 24 * 3_600_000;
const nameAt = (at: number, tail: string) => `S-${formatUtcCompact(at)}-${tail}.md`;
const note = (topic: string) =>
  `---\npalee_schema: 1\nsession_id: x\ntopic_id: ${topic}\nduration_minutes: 5\n---\n# Session\n\nbody\n`;

function setup() {
  const recent = nameAt(NOW - DAY, "ab12");
  const old = nameAt(NOW - KEPT_SPAN_MS - DAY, "cd34");
  const memory = new MemoryStore({
    [`${FOLDER}/${recent}`]: note("T-a"),
    [`${FOLDER}/${old}`]: note("T-b"),
  });
  // An identity per file version: a test bumps it to stand for a write, or sets null (too fresh to tell).
  const keys = new Map<string, string | null>([
    [`${FOLDER}/${recent}`, "k1"],
    [`${FOLDER}/${old}`, "k9"],
  ]);
  const keyOf = (path: string) => keys.get(path) ?? null;
  const kept = new KeptFields(FOLDER, keyOf);
  kept.begin(null, NOW);
  const reads: string[] = [];
  const counted = Object.assign(Object.create(memory) as MemoryStore, {
    read: (path: string) => (reads.push(path), memory.read(path)),
  });
  const store = keepingFields(counted, kept);
  return { memory, keys, kept, store, reads, recent, old };
}

describe("the recent notes kept by their files' identities", () => {
  it("answers a note read before while its file keeps the identity it had then", async () => {
    const { store, kept, recent } = setup();
    expect(store.cachedFields(`${FOLDER}/${recent}`)).toBeUndefined();
    await store.read(`${FOLDER}/${recent}`);
    expect(kept.learned()).toBe(true);
    expect(store.cachedFields(`${FOLDER}/${recent}`)).toMatchObject({ topic_id: "T-a", palee_schema: 1 });
    // What a later call begins from.
    const next = new KeptFields(FOLDER, () => "k1");
    next.begin(kept.kept(), NOW + 1000);
    expect(next.learned()).toBe(false);
    expect(next.fieldsOf(recent, `${FOLDER}/${recent}`)).toMatchObject({ topic_id: "T-a" });
  });

  it("does not answer once the file's identity changed, or cannot be told", async () => {
    const { store, keys, memory, recent } = setup();
    await store.read(`${FOLDER}/${recent}`);
    memory.files.set(`${FOLDER}/${recent}`, note("T-z")); // rewritten in place, by a sync or by hand
    keys.set(`${FOLDER}/${recent}`, "k2");
    expect(store.cachedFields(`${FOLDER}/${recent}`)).toBeUndefined();
    keys.set(`${FOLDER}/${recent}`, null);
    expect(store.cachedFields(`${FOLDER}/${recent}`)).toBeUndefined();
    keys.set(`${FOLDER}/${recent}`, "k2");
    await store.read(`${FOLDER}/${recent}`);
    expect(store.cachedFields(`${FOLDER}/${recent}`)).toMatchObject({ topic_id: "T-z" });
  });

  it("takes the identity before the read: a write between them leaves nothing answered", async () => {
    const { memory, keys, kept, recent } = setup();
    const path = `${FOLDER}/${recent}`;
    const racing = Object.assign(Object.create(memory) as MemoryStore, {
      read: (p: string) => {
        memory.files.set(p, note("T-new")); // written just after the identity was taken
        keys.set(p, "k2");
        return memory.read(p);
      },
    });
    const store = keepingFields(racing, kept);
    await store.read(path);
    keys.set(path, "k2");
    // Kept under the identity from before the write, so the file's identity now does not match it.
    expect(kept.fieldsOf(recent, path)).toBeUndefined();
  });

  it("keeps only recent confirmed notes that read as sessions, in plain JSON", async () => {
    const { store, kept, memory, keys, old } = setup();
    await store.read(`${FOLDER}/${old}`);
    expect(store.cachedFields(`${FOLDER}/${old}`)).toBeUndefined();
    const damaged = nameAt(NOW - DAY, "ef56");
    const draft = "DRAFT-S-0a1b2c3d.md";
    const odd = nameAt(NOW - DAY, "aa00");
    memory.files.set(`${FOLDER}/${damaged}`, "---\npalee_schema: [\n---\n");
    memory.files.set(`${FOLDER}/${draft}`, note("T-a"));
    memory.files.set(`${FOLDER}/${odd}`, "---\npalee_schema: 1\nduration_minutes: .inf\n---\n");
    memory.files.set(`palee/other/${nameAt(NOW, "bb11")}`, note("T-a"));
    for (const p of [damaged, draft, odd].map((n) => `${FOLDER}/${n}`)) keys.set(p, "k");
    for (const p of [damaged, draft, odd]) await store.read(`${FOLDER}/${p}`);
    expect(kept.learned()).toBe(false);
    expect([...kept.kept().keys()]).toEqual([]);
  });

  it("forgets a note this store writes, and keeps no note named before the span", async () => {
    const { store, kept, recent } = setup();
    await store.read(`${FOLDER}/${recent}`);
    await store.replace(`${FOLDER}/${recent}`, note("T-a"), note("T-c"));
    expect(store.cachedFields(`${FOLDER}/${recent}`)).toBeUndefined();
    await store.read(`${FOLDER}/${recent}`);
    const later = new KeptFields(FOLDER, () => "k1");
    later.begin(kept.kept(), NOW + 2 * DAY + KEPT_SPAN_MS);
    expect([...later.kept().keys()]).toEqual([]);
  });
});

describe("the recent notes kept as their sessions", () => {
  const session = (startedAt: string, endedAt: string) =>
    "---\npalee_schema: 1\nsession_id: S-x\ntopic_id: T-a\n" +
    `started_at: "${startedAt}"\nended_at: "${endedAt}"\nstatus: completed\nrecall_rating: 3\nbreak_minutes: -2\n` +
    "---\n# Session\n\n## Next action\n\nMore.\n";

  it("keep a note read the same in every time zone as its session, answered while its identity holds", async () => {
    const { memory, keys, kept, store, reads, recent } = setup();
    const path = `${FOLDER}/${recent}`;
    const text = session("2026-12-01T10:00:00+01:00", "2026-12-01T10:45:00+01:00");
    memory.files.set(path, text);
    await store.read(path);
    const expected = interpretConfirmed(path, classifyRecord(text), () => 0);
    if (!("record" in expected)) throw new Error("the note must read as a session");
    const asKept = { ...expected.record, body: "", bodyPending: true };
    reads.length = 0;
    expect(store.cachedConfirmed(path)).toEqual(asKept);
    expect(asKept.fieldWarnings?.length).toBe(1); // what reading it warns, kept too
    expect(store.cachedFields(path)).toBeUndefined(); // the frontmatter is not kept beside it
    // What a later call begins from.
    const later = new KeptFields(FOLDER, (p) => keys.get(p) ?? null);
    later.begin(kept.kept(), NOW + 1000);
    expect(later.sessionOf(recent, path)).toEqual(asKept);
    keys.set(path, "k2"); // rewritten in place
    expect(later.sessionOf(recent, path)).toBeUndefined();
    expect(await readConfirmed(keepingFields(memory, later), path, () => 0)).toEqual({ record: expected.record });
    expect(reads).toEqual([]); // the kept session answered without a read
  });

  it("keep a note whose reading asks the device's offset as its frontmatter, interpreted at each use", async () => {
    const { memory, store, recent } = setup();
    const path = `${FOLDER}/${recent}`;
    memory.files.set(path, session("2026-12-01T10:00:00", "2026-12-01T10:45:00"));
    await store.read(path);
    expect(store.cachedConfirmed(path)).toBeUndefined();
    expect(store.cachedFields(path)).toMatchObject({ topic_id: "T-a", started_at: "2026-12-01T10:00:00" });
    const east = confirmedFromCache(store, path, () => 120);
    const west = confirmedFromCache(store, path, () => -300);
    expect([east?.startedMs, west?.startedMs]).toEqual([
      Date.parse("2026-12-01T08:00:00Z"),
      Date.parse("2026-12-01T15:00:00Z"),
    ]);
  });
});

describe("the identities asked ahead (prepare)", () => {
  it("answer for PREPARED_MS without asking again, then the identity is asked at each answer", async () => {
    const { memory, keys, recent } = setup();
    const path = `${FOLDER}/${recent}`;
    let clock = 0;
    let asked = 0;
    const keyOf = (p: string) => (asked++, keys.get(p) ?? null);
    const first = new KeptFields(FOLDER, keyOf, () => clock);
    first.begin(null, NOW);
    await keepingFields(memory, first).read(path);
    const kept = new KeptFields(FOLDER, keyOf, () => clock);
    kept.begin(first.kept(), NOW);
    kept.prepare();
    asked = 0;
    keys.set(path, "k2"); // written after the identities were asked: as if it were written after a read then
    expect(kept.fieldsOf(recent, path)).toMatchObject({ topic_id: "T-a" });
    expect(asked).toBe(0);
    clock = PREPARED_MS + 1;
    expect(kept.fieldsOf(recent, path)).toBeUndefined();
    expect(asked).toBe(1);
  });

  it("since a time, are asked only of the notes named since then; the others at each answer", async () => {
    const { memory, keys } = setup();
    const early = nameAt(NOW - 5 * DAY, "ef56");
    const late = nameAt(NOW - DAY, "ab12");
    memory.files.set(`${FOLDER}/${early}`, note("T-c"));
    keys.set(`${FOLDER}/${early}`, "k5");
    const asked: string[] = [];
    const keyOf = (p: string) => (asked.push(p), keys.get(p) ?? null);
    const first = new KeptFields(FOLDER, keyOf);
    first.begin(null, NOW);
    for (const name of [early, late]) await keepingFields(memory, first).read(`${FOLDER}/${name}`);
    const kept = new KeptFields(FOLDER, keyOf);
    kept.begin(first.kept(), NOW);
    asked.length = 0;
    kept.prepare(NOW - 2 * DAY);
    expect(asked).toEqual([`${FOLDER}/${late}`]);
    expect(kept.fieldsOf(late, `${FOLDER}/${late}`)).toMatchObject({ topic_id: "T-a" });
    expect(asked).toHaveLength(1);
    keys.set(`${FOLDER}/${early}`, "k6"); // written since: not answered, as it is asked now
    expect(kept.fieldsOf(early, `${FOLDER}/${early}`)).toBeUndefined();
    expect(asked).toEqual([`${FOLDER}/${late}`, `${FOLDER}/${early}`]);
  });

  it("no longer answer for a note forgotten or learned again since", async () => {
    const { memory, keys, recent } = setup();
    const path = `${FOLDER}/${recent}`;
    const keyOf = (p: string) => keys.get(p) ?? null;
    const kept = new KeptFields(FOLDER, keyOf, () => 0);
    kept.begin(null, NOW);
    const store = keepingFields(memory, kept);
    await store.read(path);
    kept.prepare();
    await store.replace(path, note("T-a"), note("T-d"));
    keys.set(path, "k3");
    expect(store.cachedFields(path)).toBeUndefined();
    await store.read(path);
    expect(store.cachedFields(path)).toMatchObject({ topic_id: "T-d" });
  });
});

describe("plain JSON", () => {
  it.each([
    ["strings, numbers, lists, null, booleans, objects", { a: "x", b: [1, 2.5, null, true], c: { d: "e" } }, true],
    ["an infinity (YAML .inf)", { a: Infinity }, false],
    ["NaN (YAML .nan)", { a: NaN }, false],
    ["minus zero", { a: -0 }, false],
    ["a __proto__ key", JSON.parse('{"__proto__": 1}') as unknown, false],
    ["an object without a prototype", Object.create(null) as unknown, false],
    ["a date", { a: new Date(0) }, false],
    ["undefined", { a: undefined }, false],
  ])("%s: %s", (_label, value, plain) => {
    expect(isPlainJson(value)).toBe(plain);
  });
});
