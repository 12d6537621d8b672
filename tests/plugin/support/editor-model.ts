/**
 * A note open in Obsidian's editor, for plugin tests: a real MarkdownView of the mock in a workspace leaf,
 * with the behaviour that matters to our code and that the mock lacks.
 *
 * How faithful it is (what the real app does that this models, and what it leaves out):
 * - Typing goes into the editor's buffer only; the file on disk changes when the view saves (Obsidian's
 *   `requestSave` does so at most every 2 s: here only `save()` or `autosave()` do, when the test says so).
 * - `save()` writes the buffer with `vault.modify` when it differs from what the view last loaded or saved,
 *   and does nothing otherwise.
 * - A write to the file from elsewhere (`vault.process`, sync) reloads the view from disk: typing not yet
 *   saved is lost and the cursor goes to the start. (Obsidian merges a reload more gently, but never keeps
 *   an unsaved buffer safe from a write it did not make: the model errs on the side that shows the harm.)
 * - `editor.replaceRange` keeps the cursor where it was in the text around it, as CodeMirror maps positions
 *   through a change (the mock's own editor moves the cursor to the end of the insertion).
 * - Not modelled: undo history, several views of one file kept in step, reading mode, deferred views.
 */
import type { EditorPosition, TFile as TFileOriginal } from "obsidian";
import { MarkdownView, TFile, WorkspaceLeaf } from "obsidian-test-mocks/obsidian";
import type { ObsidianHarness } from "./obsidian-harness";

export interface OpenEditor {
  readonly view: ViewInternals;
  /** The editor's buffer (what the learner sees), saved or not. */
  buffer(): string;
  /** Types `text` at the end of the buffer, without saving, and leaves the cursor after it. */
  typeAtEnd(text: string): void;
  cursor(): EditorPosition;
  setCursor(pos: EditorPosition): void;
  /** Obsidian's debounced save firing (2 s after the last keystroke). */
  autosave(): Promise<void>;
  /** How many times the file was reloaded from disk under the editor (a write the view did not make). */
  reloads(): number;
  close(): void;
}

type ViewInternals = Omit<MarkdownView, "file"> & {
  file: TFileOriginal | null;
  data: string;
  save(clear?: boolean): Promise<void>;
  getViewData(): string;
};
/** The leaf's fields the model sets (private in the mock's types). */
type LeafInternals = { view: unknown; viewState: unknown; detach(): void };

/** Opens `path` in a new editor tab, loaded from disk as Obsidian does. */
export function openInEditor(h: ObsidianHarness, path: string): OpenEditor {
  const file = h.app.vault.getAbstractFileByPath(path);
  if (!(file instanceof TFile)) throw new Error(`openInEditor: ${path} is not a file`);
  const workspace = h.mock.workspace;
  const created: WorkspaceLeaf = workspace.getLeaf(true);
  const leaf = created as unknown as LeafInternals;
  const view = MarkdownView.create2__(created) as unknown as ViewInternals;
  const editor = view.editor;
  let reloads = 0;
  const load = (): void => {
    view.data = h.adapter.readSync__(path);
    editor.setValue(view.data);
  };
  view.file = file;
  view.getViewData = () => editor.getValue();
  view.save = async () => {
    const text = editor.getValue();
    if (text === view.data) return;
    view.data = text;
    await h.app.vault.modify(file, text);
  };
  const replace = editor.replaceRange.bind(editor);
  editor.replaceRange = (text: string, from: EditorPosition, to?: EditorPosition, origin?: string) => {
    const start = editor.posToOffset(from);
    const end = to ? editor.posToOffset(to) : start;
    const cursor = editor.posToOffset(editor.getCursor());
    replace(text, from, to, origin);
    const mapped = cursor <= start ? cursor : cursor >= end ? cursor + text.length - (end - start) : start;
    editor.setCursor(editor.offsetToPos(mapped));
  };
  const ref = h.app.vault.on("modify", (changed) => {
    if ((changed as { path: string }).path !== path) return;
    const disk = h.adapter.readSync__(path);
    if (disk === view.data) return; // the view's own save
    reloads++;
    load();
  });
  load();
  leaf.view = view;
  leaf.viewState = { type: "markdown", state: { file: path } };
  return {
    view,
    buffer: () => editor.getValue(),
    typeAtEnd(text) {
      const end = editor.offsetToPos(editor.getValue().length);
      replace(text, end, end);
      editor.setCursor(editor.offsetToPos(editor.getValue().length));
    },
    cursor: () => editor.getCursor(),
    setCursor: (pos) => editor.setCursor(pos),
    autosave: () => view.save(),
    reloads: () => reloads,
    close() {
      h.app.vault.offref(ref);
      leaf.detach();
    },
  };
}
