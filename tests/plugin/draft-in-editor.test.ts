/**
 * The draft open in Obsidian's editor (contract §5, fidelity to the app): the editor saves at most every 2 s,
 * so end, pause, continue and checkpoints save it before they read the draft, and a checkpoint changes the
 * draft through the editor, so the learner's unsaved typing and cursor stay (support/editor-model.ts).
 */
import { bodyAt, fieldsAt, onlyConfirmed, onlyDraft, startOn } from "./support/session-files";
import { openInEditor } from "./support/editor-model";
import type { OpenEditor } from "./support/editor-model";
import type { LoadedPlugin } from "./support/plugin-harness";
import { MINUTE, T0, harness, installPluginTestEnvironment, loadPlugin, tickFor } from "./support/plugin-harness";

installPluginTestEnvironment();

async function typingInTheDraft(data: Record<string, unknown> = {}): Promise<{ p: LoadedPlugin; editor: OpenEditor }> {
  const h = harness();
  const p = await loadPlugin(h, { device: "laptop", data: { askForSummary: false, ...data } });
  await startOn(p);
  const editor = openInEditor(h, onlyDraft(h));
  editor.typeAtEnd("Borrowing rules: one mutable XOR many shared.\n");
  await editor.autosave();
  editor.typeAtEnd("Lifetimes name how long a borrow lasts.\n"); // typed in the last 2 s: not saved yet
  return { p, editor };
}

describe("a draft open in the editor with unsaved typing", () => {
  it("keeps the last seconds of typing in the session note when the session ends", async () => {
    const { p } = await typingInTheDraft();
    jest.setSystemTime(T0 + 30 * MINUTE);
    await p.run("end-session");
    const body = bodyAt(p.h, onlyConfirmed(p.h));
    expect(body).toContain("Borrowing rules: one mutable XOR many shared.");
    expect(body).toContain("Lifetimes name how long a borrow lasts.");
  });

  it("keeps the typing and the cursor when an automatic checkpoint writes the draft", async () => {
    const { p, editor } = await typingInTheDraft({ checkpointMinutes: 1 });
    const draft = onlyDraft(p.h);
    const before = fieldsAt(p.h, draft).last_checkpoint_at;
    editor.setCursor({ line: editor.cursor().line - 1, ch: 9 });
    const cursorLine = editor.buffer().split("\n")[editor.cursor().line];
    await tickFor(70_000);
    expect(fieldsAt(p.h, draft).last_checkpoint_at).not.toBe(before); // the checkpoint was written…
    expect(editor.reloads()).toBe(0); // …through the editor, never under it
    expect(editor.buffer()).toContain("Lifetimes name how long a borrow lasts.");
    expect(editor.buffer().split("\n")[editor.cursor().line]).toBe(cursorLine);
    expect(editor.cursor().ch).toBe(9);
    expect(p.h.files()[draft]).toBe(editor.buffer());
  });

  it("saves the editor before a pause and a continue read the draft", async () => {
    const { p, editor } = await typingInTheDraft();
    jest.setSystemTime(T0 + 10 * MINUTE);
    await p.run("pause-session");
    expect(bodyAt(p.h, onlyDraft(p.h))).toContain("Lifetimes name how long a borrow lasts.");
    editor.typeAtEnd("Paused to read the chapter on slices.\n");
    jest.setSystemTime(T0 + 20 * MINUTE);
    await p.run("continue-session");
    expect(fieldsAt(p.h, onlyDraft(p.h)).paused_at).toBeNull();
    expect(bodyAt(p.h, onlyDraft(p.h))).toContain("Paused to read the chapter on slices.");
    expect(editor.reloads()).toBe(0);
  });
});
