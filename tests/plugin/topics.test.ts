/**
 * The topic picker (contract §5): topic notes, topics of past sessions, "use the current note as a topic" (after a
 * confirmation, through processFrontMatter), typed new topic IDs (validated), and text from notes rendered as
 * text (contract §6.9).
 */
import type { TFile } from "obsidian";
import { classifyRecord } from "../../src/core/records/frontmatter";
import { ConfirmModal } from "../../src/plugin/ui/confirm-modal";
import type { TopicChoice } from "../../src/plugin/ui/topic-picker";
import { confirmedText } from "../support/builders";
import type { ObsidianHarness } from "./support/obsidian-harness";
import {
  MINUTE,
  T0,
  buttonByText,
  click,
  harness,
  installPluginTestEnvironment,
  lastNotice,
  loadPlugin,
  modals,
  pickTopic,
  settle,
  submitEnd,
  suggestions,
  topicPicker,
} from "./support/plugin-harness";
import { HOT, S, draftPaths, fieldsAt, onlyConfirmed, onlyDraft, textAt } from "./support/session-files";

installPluginTestEnvironment();

const RUST_NOTE = "notes/Rust ownership.md";
const RUST_NOTE_TEXT = "---\npalee_id: T-rust-ownership\naliases: [ownership]\n---\nMoves, borrows and lifetimes.\n";
const PAST = "S-20260813T100000-abcd";

/** Makes `path` the note open in the active tab, as clicking it in the file explorer would. */
async function openNote(h: ObsidianHarness, path: string): Promise<TFile> {
  const file = h.app.vault.getFileByPath(path);
  if (!file) throw new Error(`${path} does not exist`);
  await h.app.workspace.getLeaf(false).openFile(file);
  expect(h.app.workspace.getActiveFile()).toBe(file);
  return file;
}

function confirmModal(): ConfirmModal {
  const found = (modals() as readonly unknown[]).filter((m): m is ConfirmModal => m instanceof ConfirmModal);
  if (found.length !== 1) throw new Error(`expected one confirm modal, found ${found.length}`);
  return found[0];
}

/** What a suggestion shows, as the learner sees it. */
function rendered(choice: TopicChoice): HTMLElement {
  const el = createDiv();
  topicPicker().renderSuggestion(choice, el);
  return el;
}

describe("what the topic picker offers", () => {
  it("offers a topic note found anywhere in the vault", async () => {
    const h = harness({ files: { [RUST_NOTE]: RUST_NOTE_TEXT, "journal/2026-08-14.md": "Just a day note\n" } });
    const p = await loadPlugin(h);
    await p.ribbon();
    expect(suggestions("")).toEqual([
      {
        kind: "topic-note",
        topicId: "T-rust-ownership",
        notePath: RUST_NOTE,
        noteName: "Rust ownership",
        aliases: ["ownership"],
      },
    ]);
    expect(rendered(suggestions("")[0]).textContent).toBe("Rust ownershipT-rust-ownership · topic note");
  });

  it("finds a topic note by its name when filtering", async () => {
    const h = harness({ files: { [RUST_NOTE]: RUST_NOTE_TEXT, "notes/Graphs.md": "---\npalee_id: T-graphs\n---\n" } });
    const p = await loadPlugin(h);
    await p.ribbon();
    const found = suggestions("ownership");
    expect(found[0]).toMatchObject({ kind: "topic-note", topicId: "T-rust-ownership" });
    expect(found.some((c) => c.kind === "topic-note" && c.topicId === "T-graphs")).toBe(false);
  });

  it("offers the topics of past confirmed sessions", async () => {
    const h = harness({ files: { [S(PAST)]: confirmedText({ session_id: PAST, topic_id: "T-borrow-checker" }) } });
    const p = await loadPlugin(h);
    await p.ribbon();
    // The past session (13 Aug, good) was due on 14 Aug, today: the picker marks it (contract §5 version 4).
    expect(suggestions("")).toEqual([{ kind: "past-topic", topicId: "T-borrow-checker", review: "due" }]);
    expect(rendered(suggestions("")[0]).textContent).toBe("T-borrow-checkerFrom your past sessions · due");
  });

  it("lists a topic once when it has a topic note and past sessions", async () => {
    const h = harness({ files: { [RUST_NOTE]: RUST_NOTE_TEXT, [S(PAST)]: confirmedText({ session_id: PAST }) } });
    const p = await loadPlugin(h);
    await p.ribbon();
    expect(suggestions("")).toEqual([
      {
        kind: "topic-note",
        topicId: "T-rust-ownership",
        notePath: RUST_NOTE,
        noteName: "Rust ownership",
        aliases: ["ownership"],
        review: "due",
      },
    ]);
  });

  it("does not offer notes of the session folder as topics", async () => {
    const h = harness({ files: { [S(PAST)]: confirmedText({ session_id: PAST, topic_id: "T-borrow-checker" }) } });
    const p = await loadPlugin(h);
    await openNote(h, S(PAST));
    await p.ribbon();
    expect(suggestions("").map((c) => c.kind)).toEqual(["past-topic"]);
  });

  it("offers to use the active note as a topic when it has no palee_id", async () => {
    const h = harness({ files: { "notes/Graph theory.md": "Vertices and edges.\n" } });
    const p = await loadPlugin(h);
    await openNote(h, "notes/Graph theory.md");
    await p.ribbon();
    const [first] = suggestions("");
    expect(first).toEqual({ kind: "use-current-note", notePath: "notes/Graph theory.md", noteName: "Graph theory" });
    expect(rendered(first).textContent).toBe('Use "Graph theory" as a topicAdds a palee_id to this note\'s properties');
  });

  it("offers the active note's own topic first when it already has a palee_id", async () => {
    const h = harness({ files: { [RUST_NOTE]: RUST_NOTE_TEXT, "notes/Graphs.md": "---\npalee_id: T-graphs\n---\n" } });
    const p = await loadPlugin(h);
    await openNote(h, "notes/Graphs.md");
    await p.ribbon();
    expect(suggestions("").map((c) => c.kind === "topic-note" && c.topicId)).toEqual(["T-graphs", "T-rust-ownership"]);
  });
});

describe("typing a new topic ID", () => {
  it("offers a valid typed ID as a new topic", async () => {
    const p = await loadPlugin(harness());
    await p.ribbon();
    const typed = suggestions("T-x");
    expect(typed[typed.length - 1]).toEqual({ kind: "new-topic", topicId: "T-x", valid: true });
    expect(rendered(typed[typed.length - 1]).textContent).toBe("New topic: T-xPress enter to start");
  });

  it('turns "rust ownership" into T-rust-ownership and starts a session on it', async () => {
    const h = harness();
    const p = await loadPlugin(h);
    await p.ribbon();
    expect(suggestions("rust ownership")).toEqual([{ kind: "new-topic", topicId: "T-rust-ownership", valid: true }]);
    await pickTopic("rust ownership");
    expect(lastNotice()).toBe("Session on T-rust-ownership started.");
    const draft = fieldsAt(h, onlyDraft(h));
    expect(draft.topic_id).toBe("T-rust-ownership");
    expect(draft).not.toHaveProperty("topic_note");
  });

  it("does not offer a new topic that is already in the list", async () => {
    const h = harness({ files: { [RUST_NOTE]: RUST_NOTE_TEXT } });
    const p = await loadPlugin(h);
    await p.ribbon();
    expect(suggestions("T-rust-ownership").map((c) => c.kind)).toEqual(["topic-note"]);
  });

  it.each([
    ["../x", "T-../x"],
    ["a|b", "T-a|b"],
    ["[[x]]", "T-[[x]]"],
    ["x#y", "T-x#y"],
  ])("shows %s as invalid, and choosing it only explains why: nothing is written", async (query, topicId) => {
    const h = harness({ files: { [RUST_NOTE]: RUST_NOTE_TEXT } });
    const before = h.files();
    const p = await loadPlugin(h);
    await p.ribbon();
    const typed = suggestions(query).find((c) => c.kind === "new-topic");
    expect(typed).toEqual({ kind: "new-topic", topicId, valid: false });
    expect(rendered(typed as TopicChoice).textContent).toContain(`Not a valid topic ID: ${topicId}`);

    await pickTopic(query, (c) => c.kind === "new-topic");
    expect(lastNotice()).toBe(
      `"${topicId}" is not a valid topic ID: use T- followed by letters, digits, ".", "_" or "-" ` +
        `(e.g. T-rust-ownership).`,
    );
    expect(h.files()).toEqual(before);
    expect(h.events).toEqual([]);
    expect(p.statusBar()?.textContent).toBe("Start session");
  });
});

describe("starting on a topic note", () => {
  it("links the topic note from the draft and from the confirmed session", async () => {
    const h = harness({ files: { [RUST_NOTE]: RUST_NOTE_TEXT } });
    const p = await loadPlugin(h);
    await p.ribbon();
    await pickTopic("", (c) => c.kind === "topic-note");
    expect(lastNotice()).toBe("Session on Rust ownership started.");
    expect(fieldsAt(h, onlyDraft(h))).toMatchObject({ topic_id: "T-rust-ownership", topic_note: "[[Rust ownership]]" });
    expect(textAt(h, onlyDraft(h))).toContain('topic_note: "[[Rust ownership]]"\n');

    // Studying: the ticks fire (a jump of the clock alone is a sleep, recorded as time away).
    jest.advanceTimersByTime(T0 + 30 * MINUTE - Date.now());
    await settle();
    await p.ribbon();
    await submitEnd("Borrowing", "Lifetimes");
    expect(fieldsAt(h, onlyConfirmed(h))).toMatchObject({
      topic_id: "T-rust-ownership",
      topic_note: "[[Rust ownership]]",
      duration_minutes: 30,
    });
    // The topic note itself is only read, never written.
    expect(textAt(h, RUST_NOTE)).toBe(RUST_NOTE_TEXT);
  });
});

describe("using the current note as a topic", () => {
  const NOTE = "notes/Graph theory.md";
  const NOTE_TEXT =
    "---\ntags:\n  - math\n---\nVertices and edges.\n\n## Trees\n\nA tree is a connected acyclic graph.\n";

  async function chooseCurrentNote(h: ObsidianHarness): Promise<void> {
    const p = await loadPlugin(h);
    await openNote(h, NOTE);
    await p.ribbon();
    await pickTopic("", (c) => c.kind === "use-current-note");
  }

  it("asks first, naming the topic ID it will write", async () => {
    const h = harness({ files: { [NOTE]: NOTE_TEXT } });
    await chooseCurrentNote(h);
    const modal = confirmModal();
    expect(modal.titleEl.textContent).toBe("Use this note as a topic?");
    expect(modal.contentEl.textContent).toContain('"Graph theory" gets the property palee_id: T-graph-theory');
    expect(textAt(h, NOTE)).toBe(NOTE_TEXT);
  });

  it("writes nothing and starts nothing when cancelled", async () => {
    const h = harness({ files: { [NOTE]: NOTE_TEXT } });
    const before = h.files();
    await chooseCurrentNote(h);
    click(buttonByText(confirmModal().contentEl, "Cancel"));
    await settle();
    expect(modals()).toHaveLength(0);
    expect(h.files()).toEqual(before);
    expect(h.events).toEqual([]);
  });

  it("writes nothing when the question is closed without an answer", async () => {
    const h = harness({ files: { [NOTE]: NOTE_TEXT } });
    const before = h.files();
    await chooseCurrentNote(h);
    confirmModal().close();
    await settle();
    expect(h.files()).toEqual(before);
  });

  it("adds palee_id to the note's frontmatter, keeps its body and other properties, and starts", async () => {
    const h = harness({ files: { [NOTE]: NOTE_TEXT } });
    const processFrontMatter = jest.spyOn(h.app.fileManager, "processFrontMatter");
    await chooseCurrentNote(h);
    click(buttonByText(confirmModal().contentEl, "Use as topic"));
    await settle();

    expect(processFrontMatter).toHaveBeenCalledTimes(1);
    const read = classifyRecord(textAt(h, NOTE));
    expect(read.state).toBe("schema-invalid"); // a note, not a record: it has no palee_schema
    if (read.state !== "schema-invalid") return;
    expect(read.fields).toEqual({ tags: ["math"], palee_id: "T-graph-theory" });
    expect(read.body).toBe("Vertices and edges.\n\n## Trees\n\nA tree is a connected acyclic graph.\n");

    expect(lastNotice()).toBe("Session on Graph theory started.");
    expect(fieldsAt(h, onlyDraft(h))).toMatchObject({ topic_id: "T-graph-theory", topic_note: "[[Graph theory]]" });
    expect(fieldsAt(h, HOT)).toMatchObject({ active_topic: "T-graph-theory" });
  });

  it("adds a frontmatter block to a note that has none, keeping its text", async () => {
    const h = harness({ files: { [NOTE]: "Vertices and edges.\n" } });
    await chooseCurrentNote(h);
    click(buttonByText(confirmModal().contentEl, "Use as topic"));
    await settle();
    const read = classifyRecord(textAt(h, NOTE));
    expect(read.state === "schema-invalid" && read.fields).toEqual({ palee_id: "T-graph-theory" });
    expect(read.state === "schema-invalid" && read.body).toBe("Vertices and edges.\n");
    expect(fieldsAt(h, onlyDraft(h)).topic_id).toBe("T-graph-theory");
  });

  it("gives a clear notice and writes nothing when the note's frontmatter YAML is invalid", async () => {
    const broken = "---\ntags: [math\n---\nVertices and edges.\n";
    const h = harness({ files: { [NOTE]: broken } });
    const before = h.files();
    await chooseCurrentNote(h);
    click(buttonByText(confirmModal().contentEl, "Use as topic"));
    await settle();
    // The parser's own message (here several lines, with a caret under the error) sits in the parentheses.
    expect(lastNotice()).toMatch(
      new RegExp(
        /^Could not add palee_id to "Graph theory": its properties could not be read \(.+\)\. /.source +
          /Fix them, or pick a topic instead\.$/.source,
        "s",
      ),
    );
    expect(modals()).toHaveLength(0);
    expect(draftPaths(h)).toEqual([]);
    expect(h.files()).toEqual(before);
    expect(h.events).toEqual([]);
  });
});

describe("text from notes in the picker", () => {
  const HOSTILE = "<img src=x onerror=alert(1)>";

  it("renders a topic note's name as text, never as HTML", async () => {
    const h = harness({ files: { [`notes/${HOSTILE}.md`]: "---\npalee_id: T-xss\n---\n" } });
    const p = await loadPlugin(h);
    await p.ribbon();
    const [choice] = suggestions("");
    expect(choice).toMatchObject({ kind: "topic-note", noteName: HOSTILE });
    const el = rendered(choice);
    expect(el.querySelector("img")).toBeNull();
    expect(el.textContent).toBe(`${HOSTILE}T-xss · topic note`);
  });

  it("renders the current note's name as text in the use-as-topic line", async () => {
    const h = harness({ files: { [`notes/${HOSTILE}.md`]: "plain\n" } });
    const p = await loadPlugin(h);
    await openNote(h, `notes/${HOSTILE}.md`);
    await p.ribbon();
    const [choice] = suggestions("");
    const el = rendered(choice);
    expect(el.querySelector("img")).toBeNull();
    expect(el.textContent).toContain(`Use "${HOSTILE}" as a topic`);
  });

  it("renders a typed ID with markup as text", async () => {
    const p = await loadPlugin(harness());
    await p.ribbon();
    const typed = suggestions("<b>bold</b>").find((c) => c.kind === "new-topic");
    const el = rendered(typed as TopicChoice);
    expect(el.querySelector("b")).toBeNull();
    expect(el.textContent).toContain("Not a valid topic ID: T-<b>bold</b>");
  });
});
