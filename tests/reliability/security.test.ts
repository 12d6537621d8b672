/**
 * Security (contract §2 IDs, §4 deletion boundary, §6.8, §6.9), core and Node store:
 * - topic IDs never reach a path: whatever string comes in as a topic (new input, or a legacy ID read from a
 *   note), an operation either refuses it with a clear message or creates only the session folder's own files;
 * - the deletion boundary (`assertRemovable`) refuses every path that is not a draft directly inside
 *   `<folder>/sessions/`, and the core never asks the store to trash anything else;
 * - the Node store refuses to trash through symlinks leading out of the vault (real symlinks in temp dirs);
 * - no HTML sinks or dynamic code in src/ or in the built main.js.
 *
 * Already covered elsewhere (not repeated here): tests/core/layout.test.ts (a dozen boundary paths),
 * tests/store/node-store.test.ts (`..` and absolute paths in the Node store, a symlinked draft and a symlinked
 * sessions folder leading out), tests/cli/exit-codes.test.ts (--folder leaving the vault).
 */
import { ForwardingStore } from "../support/forwarding-store";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { BoundaryError, PaleeError } from "../../src/core/errors";
import { classifyRecord } from "../../src/core/records/frontmatter";
import { TOPIC_ID_PATTERN, normalizeTopic } from "../../src/core/topics/ids";
import { assertRemovable, layoutFor } from "../../src/core/records/layout";
import type { SessionStore } from "../../src/core/ports";
import { PaleeSessions } from "../../src/core/sessions";
import { NodeStore } from "../../src/node/node-store";
import { confirmedText, draftText, hotText } from "../support/builders";
import { FakeClock, SeededRandom } from "../support/fakes";
import { MemoryStore } from "../support/memory-store";

const RUNS = Number(process.env.SECURITY_RUNS ?? 300);

/** The only file names the core may create, directly inside the folder or its sessions/ (contract §2). */
function allowedPath(folder: string, p: string): boolean {
  const prefix = `${folder}/`;
  if (!p.startsWith(prefix)) return false;
  const rest = p.slice(prefix.length);
  return (
    rest === "hot.md" ||
    rest === "index.md" ||
    /^sessions\/DRAFT-S-[0-9a-f]{8}\.md$/.test(rest) ||
    /^sessions\/S-\d{8}T\d{6}-[0-9a-f]{4}\.md$/.test(rest)
  );
}

/**
 * A MemoryStore that records every path it is asked to write or trash, and fails the test's check (collected,
 * since a throw inside the core would be taken for a refusal) when a trash is not a draft of the sessions folder.
 */
class WatchingStore extends ForwardingStore<MemoryStore> {
  readonly touched: string[] = [];
  readonly badTrash: string[] = [];
  constructor(
    inner: MemoryStore,
    private readonly folder: string,
  ) {
    super(inner, true);
  }
  create(p: string, content: string) {
    this.touched.push(p);
    return this.inner.create(p, content);
  }
  replace(p: string, expected: string | null, content: string) {
    this.touched.push(p);
    return this.inner.replace(p, expected, content);
  }
  trash(p: string) {
    if (
      !new RegExp(`^${this.folder.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/sessions/DRAFT-S-[0-9a-f]{8}\\.md$`).test(p)
    )
      this.badTrash.push(p);
    return this.inner.trash(p);
  }
}

function coreOn(store: SessionStore, folder = "palee", device = "laptop"): PaleeSessions {
  return new PaleeSessions(
    { store, clock: FakeClock.at("2026-08-14T12:00:00Z"), random: new SeededRandom(7), device },
    layoutFor(folder),
  );
}

/** Strings that look like topics, paths, links and markup, plus arbitrary text of every kind. */
const hostileText = fc.oneof(
  fc.constantFrom(
    "../x",
    "T-../../x",
    "T-a/b",
    "T-a\\b",
    "T-..",
    "T-.",
    "T-[[x]]",
    "T-a|b",
    "T-#tag",
    "T-a\u0000b",
    "T-a\nb",
    "/etc/passwd",
    "C:\\Windows\\x",
    "T-%2e%2e%2fx",
    `T-${"a".repeat(121)}`,
    `T-${"a".repeat(120)}`,
    "(none)",
    " (NONE) ",
    "   ",
    " T-ok ",
    "T-<img src=x onerror=alert(1)>",
    "T-\u202eevil",
    "T-a\u2215b",
    "T-ａ",
  ),
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary" }),
  fc.stringMatching(/^T-[A-Za-z0-9][A-Za-z0-9._\-/\\:%[\]|# ]{0,24}$/),
);

describe("topic IDs never reach a path", () => {
  it(
    "new input: start, checkpoint and end either refuse the topic clearly or create only the " + "folder's own files",
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileText, async (topic) => {
          const store = new WatchingStore(new MemoryStore(), "palee");
          const core = coreOn(store);
          const given = normalizeTopic(topic);
          const valid = given !== null && TOPIC_ID_PATTERN.test(given);
          const outcomes: string[] = [];
          for (const run of [
            () => core.start({ topic }),
            () => core.checkpoint({ topic, notes: "n" }),
            () => core.end({ topic, summary: "s" }),
          ]) {
            try {
              await run();
              outcomes.push("ok");
            } catch (error) {
              if (!(error instanceof PaleeError)) throw error;
              outcomes.push(error.kind);
              if (error.kind === "invalid_topic")
                expect(error.message).toMatch(/^invalid topic ID .*: use T- followed by letters, digits/s);
              if (error.kind === "topic_required") expect(error.message).toMatch(/^topic required/);
            }
          }
          // A valid ID (blank and "(none)" mean no topic) works; anything else is refused before anything is written.
          if (valid) expect(outcomes).toEqual(["ok", "ok", "ok"]);
          else if (given === null) expect(outcomes).toEqual(["topic_required", "topic_required", "topic_required"]);
          else expect(outcomes).toEqual(["invalid_topic", "invalid_topic", "invalid_topic"]);
          if (!valid) expect(store.touched).toEqual([]);
          for (const p of store.inner.files.keys())
            expect({ p, allowed: allowedPath("palee", p) }).toEqual({ p, allowed: true });
          expect(store.badTrash).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    },
  );

  it(
    "legacy IDs read from notes (any string): checkpoint, end, save and rebuild create only " +
      "the folder's own files",
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileText, fc.constantFrom("palee", "Study/palee"), async (legacy, folder) => {
          const draft = draftText(
            {
              session_id: "DRAFT-S-0000000a",
              topic_id: legacy,
              started_at: "2026-08-14T11:00:00+00:00",
              last_checkpoint_at: "2026-08-14T11:50:00+00:00",
            },
            "notes\n",
          );
          const old = draftText({
            session_id: "DRAFT-S-0000000b",
            topic_id: legacy,
            started_at: "2026-08-13T09:00:00+00:00",
            last_checkpoint_at: "2026-08-13T09:30:00+00:00",
          });
          const hot = hotText({
            active_topic: legacy,
            started_at: "2026-08-14T11:00:00+00:00",
            open_draft: "DRAFT-S-0000000a",
            device: "laptop",
          });
          // Only topics that survive the YAML round trip as a non-blank string are topics at all.
          const read = classifyRecord(draft);
          fc.pre(
            read.state === "ok" &&
              normalizeTopic(read.fields.topic_id) === legacy.trim() &&
              normalizeTopic(legacy) !== null,
          );
          const inner = new MemoryStore({
            [`${folder}/hot.md`]: hot,
            [`${folder}/sessions/DRAFT-S-0000000a.md`]: draft,
            [`${folder}/sessions/DRAFT-S-0000000b.md`]: old,
          });
          const store = new WatchingStore(inner, folder);
          const core = coreOn(store, folder);
          await core.checkpoint({ notes: "more" });
          const ended = await core.end({ summary: "done" });
          expect(ended.session.topicId).toBe(legacy.trim());
          await core.recover("DRAFT-S-0000000b", "save");
          await core.rebuild();
          for (const p of inner.files.keys())
            expect({ p, allowed: allowedPath(folder, p) }).toEqual({ p, allowed: true });
          expect(store.badTrash).toEqual([]);
          expect(inner.trashed.map((t) => t.path).sort()).toEqual([
            `${folder}/sessions/DRAFT-S-0000000a.md`,
            `${folder}/sessions/DRAFT-S-0000000b.md`,
          ]);
          // index.md: one line per session, whatever the topic holds (no line break, link or table cell leaks in).
          const index = inner.files.get(`${folder}/index.md`) ?? "";
          const lines = index.split("\n").filter((l) => l.startsWith("- "));
          expect(lines).toHaveLength(2);
          for (const line of lines) {
            expect(line).toMatch(/^- \[\[S-\d{8}T\d{6}-[0-9a-f]{4}\]\] - Topic: /);
            const topicPart = line.replace(/^- \[\[S-[^\]]+\]\] - Topic: /, "");
            expect(topicPart).not.toMatch(/(^|[^\\])(\[\[|\]\]|\|)/);
          }
          expect(index.split("\n").filter((l) => l !== "" && !l.startsWith("- ")).length).toBe(
            index.split("\n").filter((l) => l !== "").length - 2,
          );
        }),
        { numRuns: RUNS },
      );
    },
  );
});

describe("the deletion boundary (assertRemovable, src/core/records/layout.ts)", () => {
  const layout = layoutFor("palee");
  const nested = layoutFor("Study/palee");

  it.each([
    // traversal, in every spelling
    "..",
    "../palee/sessions/DRAFT-S-0123abcd.md",
    "palee/sessions/../sessions/DRAFT-S-0123abcd.md",
    "palee/sessions/./DRAFT-S-0123abcd.md",
    "palee//sessions/DRAFT-S-0123abcd.md",
    "palee/sessions//DRAFT-S-0123abcd.md",
    "palee/sessions/DRAFT-S-0123abcd.md/..",
    "palee/sessions/DRAFT-S-0123abcd.md/../../../Notes/precious.md",
    "palee/sessions/DRAFT-S-..md",
    "sessions/../x",
    "palee/sessions/../x",
    // absolute
    "/palee/sessions/DRAFT-S-0123abcd.md",
    "/etc/passwd",
    "C:\\palee\\sessions\\DRAFT-S-0123abcd.md",
    "C:/palee/sessions/DRAFT-S-0123abcd.md",
    "\\\\server\\share\\palee\\sessions\\DRAFT-S-0123abcd.md",
    // backslashes (a separator on Windows)
    "palee\\sessions\\DRAFT-S-0123abcd.md",
    "palee/sessions\\DRAFT-S-0123abcd.md",
    "palee/sessions/DRAFT-S-x\\..\\..\\x.md",
    "palee/sessions/sub\\DRAFT-S-0123abcd.md",
    // encoded variants: refused when they spell a traversal, never decoded into one
    "palee/sessions/DRAFT-S-%2e%2e%2f%2e%2e%2fx.md/..",
    "palee%2fsessions%2fDRAFT-S-0123abcd.md",
    "palee/sessions/DRAFT-S-0123abcd.md%00.txt",
    "palee/sessions/DRAFT-S-0123abcd.md\u0000",
    "palee/sessions/DRAFT-S-01\u0000.md",
    "palee/sessions/DRAFT-S-01\n.md",
    "palee/sessions/DRAFT-S-\u2025/x.md",
    // not a draft
    "palee/sessions/S-20260814T120000-abcd.md",
    "palee/sessions/draft-s-0123abcd.md",
    "palee/sessions/DRAFT-S-0123abcd.MD",
    "palee/sessions/DRAFT-S-0123abcd",
    "palee/sessions/",
    "palee/sessions",
    "palee/hot.md",
    "palee/index.md",
    "",
    // in a subfolder, or in another folder
    "palee/sessions/sub/DRAFT-S-0123abcd.md",
    "palee/sessions/DRAFT-S-0123abcd/DRAFT-S-0123abcd.md",
    "Study/palee/sessions/DRAFT-S-0123abcd.md",
    "PALEE/sessions/DRAFT-S-0123abcd.md",
    "palee/Sessions/DRAFT-S-0123abcd.md",
    " palee/sessions/DRAFT-S-0123abcd.md",
  ])("refuses %j in the default folder", (p) => {
    expect(() => assertRemovable(layout, p)).toThrow(BoundaryError);
  });

  it.each([
    "palee/sessions/DRAFT-S-0123abcd.md",
    "Study/palee/sessions/../../palee/sessions/DRAFT-S-0123abcd.md",
    "Study/palee/sessions/sub/DRAFT-S-0123abcd.md",
    "Study/palee/hot.md",
    "Study/palee/sessions/S-20260814T120000-abcd.md",
  ])("refuses %j in a nested folder (Study/palee)", (p) => {
    expect(() => assertRemovable(nested, p)).toThrow(BoundaryError);
  });

  it("accepts a draft directly inside the sessions folder, of either layout", () => {
    expect(() => assertRemovable(layout, "palee/sessions/DRAFT-S-0123abcd.md")).not.toThrow();
    expect(() => assertRemovable(nested, "Study/palee/sessions/DRAFT-S-0123abcd.md")).not.toThrow();
  });

  it(
    "accepts nothing but a one-segment DRAFT-S-*.md name under <folder>/sessions/, whatever " + "the string (property)",
    () => {
      const pieces = fc.constantFrom(
        "palee",
        "sessions",
        "..",
        ".",
        "",
        "/",
        "\\",
        "DRAFT-S-",
        "0123abcd",
        ".md",
        "%2e",
        "%2f",
        "\u0000",
        "Study",
        "S-",
      );
      const candidate = fc.oneof(
        fc.string(),
        fc.array(pieces, { maxLength: 10 }).map((parts) => parts.join("")),
        fc.array(pieces, { maxLength: 6 }).map((parts) => `palee/sessions/${parts.join("")}`),
      );
      fc.assert(
        fc.property(candidate, (p) => {
          let accepted = true;
          try {
            assertRemovable(layout, p);
          } catch (error) {
            expect(error).toBeInstanceOf(BoundaryError);
            accepted = false;
          }
          if (!accepted) return;
          const parts = p.split("/");
          expect(parts.slice(0, 2)).toEqual(["palee", "sessions"]);
          expect(parts).toHaveLength(3);
          const name = parts[2];
          expect(name).toMatch(/^DRAFT-S-.*\.md$/);
          expect(name).not.toMatch(/\.\.|\\|\p{Cc}/u);
        }),
        { numRuns: RUNS * 10 },
      );
    },
  );

  it("recover never trashes anything for a hostile draft ID, and refuses it as no such draft", async () => {
    const inner = new MemoryStore({
      "Notes/precious.md": "keep me\n",
      "palee/sessions/S-20260813T100000-abcd.md": confirmedText({
        session_id: "S-20260813T100000-abcd",
        absorbed_drafts: ["../../Notes/precious"],
      }),
      "palee/hot.md": hotText(),
    });
    const store = new WatchingStore(inner, "palee");
    const core = coreOn(store);
    for (const id of [
      "../../Notes/precious",
      "DRAFT-S-../../../Notes/precious",
      "DRAFT-S-..\\..\\Notes\\precious",
      "S-20260813T100000-abcd",
      "/etc/passwd",
      "DRAFT-S-0123abcd/../../hot",
    ]) {
      for (const action of ["discard", "save"] as const) {
        await expect(core.recover(id, action)).rejects.toMatchObject({ kind: "no_such_draft" });
      }
    }
    expect(inner.trashed).toEqual([]);
    expect(store.badTrash).toEqual([]);
    expect(inner.files.get("Notes/precious.md")).toBe("keep me\n");
  });
});

// ---- the Node store and real symlinks -------------------------------------------------------------------

const roots: string[] = [];
function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  roots.push(dir);
  return dir;
}
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

const DRAFT = "DRAFT-S-0000000a";
const draftOnDisk = draftText(
  {
    session_id: DRAFT,
    topic_id: "T-a",
    started_at: "2026-08-14T11:00:00+00:00",
    last_checkpoint_at: "2026-08-14T11:30:00+00:00",
  },
  "outside notes\n",
);

describe("the Node store's trash and symlinks leading out of the vault", () => {
  it("refuses a draft whose session folder's parent (palee) is a symlink out of the vault", async () => {
    const vault = tempDir("palee-sec-vault-");
    const outside = tempDir("palee-sec-out-");
    fs.mkdirSync(path.join(outside, "sessions"));
    fs.writeFileSync(path.join(outside, "sessions", `${DRAFT}.md`), draftOnDisk);
    fs.symlinkSync(outside, path.join(vault, "palee"));
    await expect(new NodeStore(vault).trash(`palee/sessions/${DRAFT}.md`)).rejects.toBeInstanceOf(BoundaryError);
    expect(fs.readFileSync(path.join(outside, "sessions", `${DRAFT}.md`), "utf8")).toBe(draftOnDisk);
    expect(fs.existsSync(path.join(vault, ".trash"))).toBe(false);
  });

  it("refuses a draft that is a symlink to another file inside the vault, and leaves the target alone", async () => {
    const vault = tempDir("palee-sec-vault-");
    fs.mkdirSync(path.join(vault, "palee", "sessions"), { recursive: true });
    fs.writeFileSync(path.join(vault, "Notes.md"), "my own note\n");
    fs.symlinkSync(path.join(vault, "Notes.md"), path.join(vault, "palee", "sessions", `${DRAFT}.md`));
    await expect(new NodeStore(vault).trash(`palee/sessions/${DRAFT}.md`)).rejects.toBeInstanceOf(BoundaryError);
    expect(fs.readFileSync(path.join(vault, "Notes.md"), "utf8")).toBe("my own note\n");
    expect(fs.lstatSync(path.join(vault, "palee", "sessions", `${DRAFT}.md`)).isSymbolicLink()).toBe(true);
  });

  it("refuses a path through a symlinked subfolder of sessions/ even if the name looked like a draft", async () => {
    const vault = tempDir("palee-sec-vault-");
    const outside = tempDir("palee-sec-out-");
    fs.mkdirSync(path.join(vault, "palee", "sessions"), { recursive: true });
    fs.writeFileSync(path.join(outside, `${DRAFT}.md`), draftOnDisk);
    fs.symlinkSync(outside, path.join(vault, "palee", "sessions", "link"));
    const core = coreOn(new NodeStore(vault));
    // The core never asks for it (the boundary refuses sub-paths); the store refuses it on its own too.
    expect(() => assertRemovable(core.layout, `palee/sessions/link/${DRAFT}.md`)).toThrow(BoundaryError);
    await expect(new NodeStore(vault).trash(`palee/sessions/link/${DRAFT}.md`)).rejects.toBeInstanceOf(BoundaryError);
    expect(fs.readFileSync(path.join(outside, `${DRAFT}.md`), "utf8")).toBe(draftOnDisk);
  });

  it(
    "never lists, absorbs or trashes a draft-named symlink leading out of the vault (start, " + "end, rebuild)",
    async () => {
      const vault = tempDir("palee-sec-vault-");
      const outside = tempDir("palee-sec-out-");
      fs.mkdirSync(path.join(vault, "palee", "sessions"), { recursive: true });
      fs.writeFileSync(path.join(outside, "precious.md"), draftOnDisk);
      fs.symlinkSync(path.join(outside, "precious.md"), path.join(vault, "palee", "sessions", `${DRAFT}.md`));
      const core = coreOn(new NodeStore(vault));
      expect((await core.list()).drafts).toEqual([]);
      expect((await core.start({ topic: "T-a" })).status).toBe("started");
      const ended = await core.end({ summary: "done" });
      expect(ended.absorbedDrafts).not.toContain(DRAFT);
      await core.rebuild();
      expect(fs.readFileSync(path.join(outside, "precious.md"), "utf8")).toBe(draftOnDisk);
      expect(fs.lstatSync(path.join(vault, "palee", "sessions", `${DRAFT}.md`)).isSymbolicLink()).toBe(true);
      expect(fs.readdirSync(outside)).toEqual(["precious.md"]);
    },
  );
});

// ---- no HTML sinks, no dynamic code -------------------------------------------------------------------

const ROOT = path.resolve(__dirname, "../..");
/** Ways text could become HTML or code (contract §6.9), including Obsidian's Markdown renderer. */
const SINKS: Array<[string, RegExp]> = [
  ["innerHTML", /\binnerHTML\b/],
  ["outerHTML", /\bouterHTML\b/],
  ["insertAdjacentHTML", /\binsertAdjacentHTML\b/],
  ["document.write", /\bdocument\s*\.\s*write(ln)?\s*\(/],
  ["eval(", /(^|[^\w$.])eval\s*\(/],
  ["new Function", /\bnew\s+Function\s*\(/],
  ["Function(", /(^|[^\w$.])Function\s*\(/],
  ["setTimeout with a string", /\bset(Timeout|Interval)\s*\(\s*["'`]/],
  ["createContextualFragment", /\bcreateContextualFragment\b/],
  ["DOMParser", /\bDOMParser\b/],
  ["srcdoc", /\bsrcdoc\b/],
  ["MarkdownRenderer", /\bMarkdownRenderer\b/],
  ["sanitizeHTMLToDom", /\bsanitizeHTMLToDom\b/],
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : /\.(ts|js|mjs)$/.test(e.name) ? [full] : [];
  });
}

function sinksIn(text: string): string[] {
  return SINKS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
}

describe("no HTML sinks or dynamic code (contract §6.9)", () => {
  it("the scan finds each sink it looks for (so a clean result means something)", () => {
    const samples = [
      "el.innerHTML = x",
      "el.outerHTML = x",
      "el.insertAdjacentHTML('beforeend', x)",
      "document.write(x)",
      "eval(x)",
      "new Function('return 1')",
      "const f = Function('return 1')",
      "setTimeout('alert(1)', 1)",
      "range.createContextualFragment(x)",
      "new DOMParser()",
      "frame.srcdoc = x",
      "MarkdownRenderer.render(app, x, el, '', this)",
      "sanitizeHTMLToDom(x)",
    ];
    expect(samples.map((sample, i) => [sample, sinksIn(sample).includes(SINKS[i][0])])).toEqual(
      samples.map((sample) => [sample, true]),
    );
    expect(sinksIn("const evaluated = retrieval(x); el.setText(x); new FunctionComponent(); myFunction(x)")).toEqual(
      [],
    );
  });

  it("src/ has none", () => {
    const files = sourceFiles(path.join(ROOT, "src"));
    expect(files.length).toBeGreaterThan(20);
    const found = files
      .map((f) => [path.relative(ROOT, f), sinksIn(fs.readFileSync(f, "utf8"))])
      .filter(([, s]) => s.length > 0);
    expect(found).toEqual([]);
  });

  it("the built main.js has none (it bundles no third-party code that needs one)", () => {
    const mainJs = path.join(ROOT, "main.js");
    if (!fs.existsSync(mainJs)) throw new Error(`${mainJs} does not exist: run "npm run build" first`);
    expect(sinksIn(fs.readFileSync(mainJs, "utf8"))).toEqual([]);
  });
});
