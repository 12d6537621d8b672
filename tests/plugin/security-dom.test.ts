/**
 * Text from notes is rendered as text everywhere (contract §6.9), checked through the DOM: hostile topic IDs
 * (legacy IDs read from notes may be any string), summaries, next actions, device names, draft bodies, note
 * names and file names go through every modal (topic picker, end modal with its duration preview, recovery
 * rows, confirm modal, settings tab, the end dialog's silence and choices, the log dialog), every notice
 * (started, already open, status, open elsewhere, recovery, pause, continue, time away with its "Count it"
 * button, warnings, errors) and the status bar. Each surface is attached to `document` while it is on screen, then
 * the whole document is searched for elements the text could have become.
 *
 * Already covered (not repeated): topics.test.ts renders hostile note names and a typed `<b>` in the picker's
 * suggestions; the last test here renders a hostile topic and device in one recovery row. settings.test.ts
 * refuses `../x`, `a/../../x`, `/abs` and `C:/palee` as session folders; the backslash spellings are here.
 *
 * Notices: obsidian-test-mocks renders a string message with textContent, as Obsidian does; the test also
 * checks that every notice is given a plain string (never a fragment built from HTML).
 */
import { Notice } from "obsidian-test-mocks/obsidian";
import { ConfirmModal } from "../../src/plugin/ui/confirm-modal";
import { DEVICE_STORAGE_KEY } from "../../src/plugin/adapters/device";
import { confirmedText, draftText, hotText } from "../support/builders";
import type { ObsidianHarness } from "./support/obsidian-harness";
import type { LoadedPlugin } from "./support/plugin-harness";
import {
  buttonByText,
  click,
  endModal,
  harness,
  installPluginTestEnvironment,
  loadPlugin,
  modals,
  noticeLog,
  recoverAction,
  recoveryRows,
  settle,
  submitEnd,
  topicPicker,
  type,
  recoveryModal,
  settingRow,
  settingTab,
} from "./support/plugin-harness";
import { HOT, S, at, confirmedPaths, fieldsAt, onlyDraft, statusText, textAt } from "./support/session-files";

installPluginTestEnvironment();

const IMG = "<img src=x onerror=alert(1)>";
const SCRIPT = "<script>window.__pwned=1</script>";
const LINK = "[[x]]|#";
const BOLD = "**bold**";

/** Elements that text from a note could turn into if it were parsed as HTML or Markdown. */
const PARSED =
  "img, script, iframe, object, embed, svg, math, style, link, a, b, strong, em, i, [onerror], [onload], [src], [href]";

// ---- surfaces on screen ----------------------------------------------------------------------------------

let plugin: LoadedPlugin | null = null;
const extra: HTMLElement[] = [];

/** The notices shown so far, as the mock built them (each renders its message into its own element). */
function noticeSpy(): jest.SpyInstance {
  // Already spied by the harness (which records the texts): spyOn returns that same spy.
  return jest.spyOn(Notice.prototype, "constructor__");
}

/** Attaches everything on screen to the document: open modals, notices, the status bar, extra elements. */
function mount(): void {
  const on = (el: HTMLElement | null | undefined): void => {
    if (el && !el.isConnected) document.body.appendChild(el);
  };
  for (const modal of modals()) on(modal.containerEl);
  for (const notice of noticeSpy().mock.instances as Array<{ containerEl: HTMLElement }>) on(notice.containerEl);
  on(plugin?.statusBar());
  for (const el of extra) on(el);
}

/** What a suggestion of the open topic picker shows, rendered into the document. */
function renderSuggestions(query: string): string[] {
  const picker = topicPicker();
  return picker.getSuggestions(query).map((choice) => {
    const el = createDiv();
    picker.renderSuggestion(choice, el);
    extra.push(el);
    return el.textContent ?? "";
  });
}

/** Everything on screen holds `literals` as text, and nothing on screen or anywhere in the document was parsed. */
function expectRenderedAsText(...literals: string[]): void {
  mount();
  expect(Array.from(document.querySelectorAll(PARSED)).map((el) => el.outerHTML.slice(0, 80))).toEqual([]);
  const text = document.body.textContent ?? "";
  for (const literal of literals) expect({ literal, shown: text.includes(literal) }).toEqual({ literal, shown: true });
  expect((window as unknown as { __pwned?: unknown }).__pwned).toBeUndefined();
  // Every notice was given plain text, which Notice renders as text.
  expect(noticeSpy().mock.calls.map(([message]) => typeof message)).toEqual(noticeSpy().mock.calls.map(() => "string"));
}

afterEach(() => {
  plugin?.unload();
  plugin = null;
  extra.length = 0;
  while (document.body.firstChild) document.body.firstChild.remove();
});

async function openNote(h: ObsidianHarness, path: string): Promise<void> {
  const file = h.app.vault.getFileByPath(path);
  if (!file) throw new Error(`${path} does not exist`);
  await h.app.workspace.getLeaf(false).openFile(file);
}

// ---- the detector itself ---------------------------------------------------------------------------------

describe("the check", () => {
  it("finds an element anywhere in the document, and text that is missing", () => {
    const el = createDiv();
    el.createEl("img");
    extra.push(el);
    expect(() => expectRenderedAsText()).toThrow();
    el.empty();
    el.setText("Some text");
    expect(() => expectRenderedAsText("Some text")).not.toThrow();
    expect(() => expectRenderedAsText(IMG)).toThrow();
  });
});

// ---- a learner's day with hostile text everywhere ------------------------------------------------------

const OTHER = "DRAFT-S-0000aaaa";
const PAST = "S-20260813T100000-abcd";
const IMG_NOTE = `notes/${IMG}.md`;
const BOLD_NOTE = `notes/${BOLD} ${LINK}.md`;
const BAD_FILE = `palee/sessions/S-${IMG}.md`;

function hostileVault(): ObsidianHarness {
  return harness({
    files: {
      [HOT]: hotText({ active_topic: LINK, last_session: PAST }, `${IMG} ${SCRIPT}\n`),
      // An interrupted draft of another device: hostile device name, topic and body.
      [S(OTHER)]: draftText(
        { session_id: OTHER, topic_id: BOLD, device: SCRIPT, started_at: at(-90), last_checkpoint_at: at(-60) },
        `${IMG}\n${SCRIPT}\n`,
      ),
      // A past session on a legacy topic, with markup in its summary and next action.
      [S(PAST)]: confirmedText({ session_id: PAST, topic_id: LINK }, { summary: IMG, next: SCRIPT }),
      // A damaged session file whose very name is markup: reported by name in a warning notice.
      [BAD_FILE]: "---\npalee_schema: [1\n---\n",
      // A topic note whose name is markup and whose legacy palee_id is a script.
      [IMG_NOTE]: `---\npalee_id: ${JSON.stringify(SCRIPT)}\n---\nNotes\n`,
      // A note without a topic whose properties do not parse, the broken line holding markup.
      [BOLD_NOTE]: `---\ntags: [${IMG}\n---\n${BOLD}\n`,
    },
  });
}

describe("hostile text from notes, through every surface of the plugin", () => {
  it(
    "is shown literally in the recovery modal, the picker, notices, the status bar, the end " +
      "modal, the confirm modal and the settings tab",
    async () => {
      const h = hostileVault();
      plugin = await loadPlugin(h, { device: "laptop" });
      const p = plugin;

      // Vault open: the other device's draft in the recovery modal; the damaged file named in a warning.
      expect(recoveryRows().map((r) => r.draftId)).toEqual([OTHER]);
      expectRenderedAsText(BOLD, `On ${SCRIPT} ·`, `skipped ${BAD_FILE}`);
      await recoverAction(OTHER, "save");
      expect(modals()).toHaveLength(0);
      expect(noticeLog()).not.toContainEqual(expect.stringMatching(/^Could not/));

      // The picker: the note's name, its legacy ID, the past session's legacy topic, and a typed ID with markup.
      await p.run("start-session");
      const shown = renderSuggestions("");
      expect(shown).toEqual(
        expect.arrayContaining([`${IMG}${SCRIPT} · topic note`, `${LINK}From your past sessions · due`]),
      );
      const typed = renderSuggestions(SCRIPT);
      expect(typed[typed.length - 1]).toBe(
        `Not a valid topic ID: T-${SCRIPT}Use T- followed by letters, digits, ".", "_" or "-"`,
      );
      expectRenderedAsText(IMG, `${SCRIPT} · topic note`, LINK, `Not a valid topic ID: T-${SCRIPT}`);
      // Choosing the invalid typed ID: a notice, and nothing starts.
      const invalid = topicPicker()
        .getSuggestions(SCRIPT)
        .find((c) => c.kind === "new-topic");
      if (!invalid) throw new Error("no new-topic suggestion");
      topicPicker().selectSuggestion(invalid, new MouseEvent("click"));
      await settle();
      expect(noticeLog()[noticeLog().length - 1]).toBe(
        `"T-${SCRIPT}" is not a valid topic ID: use T- followed by letters, digits, ".", "_" or ` +
          `"-" (e.g. T-rust-ownership).`,
      );
      expectRenderedAsText(`"T-${SCRIPT}" is not a valid topic ID`);

      // Starting on the topic note (its legacy ID is the script): notice and status bar.
      await p.run("start-session");
      const choice = topicPicker()
        .getSuggestions("")
        .find((c) => c.kind === "topic-note" && c.topicId === SCRIPT);
      if (!choice) throw new Error("no topic-note suggestion for the legacy ID");
      topicPicker().selectSuggestion(choice, new MouseEvent("click"));
      await settle();
      const draft = onlyDraft(h);
      expect(fieldsAt(h, draft)).toMatchObject({ topic_id: SCRIPT, topic_note: `[[${IMG}]]` });
      // The status bar names the topic note (version 4, topics by name), shown as text.
      expect(statusText(p)).toBe(`${IMG} 0:00:00`);
      expectRenderedAsText(`Session on ${IMG} started.`, `${IMG} 0:00:00`);

      // Already open, and the status notice.
      await p.run("start-session");
      await p.run("show-status");
      expectRenderedAsText(`A session on ${IMG} is already open`, `${IMG}: 0:00:00 so far`);

      // The end modal: the topic in its duration preview; markup typed as summary and next action.
      jest.advanceTimersByTime(25 * 60_000);
      await p.run("end-session");
      expect(endModal().contentEl.querySelector(".palee-end-preview")?.textContent).toBe(
        `${IMG} · started 12:00 · 25 min`,
      );
      expectRenderedAsText(`${IMG} · started 12:00 · 25 min`);
      await submitEnd(`${IMG} ${BOLD}`, `${SCRIPT} ${LINK}`);
      expectRenderedAsText(`Session on ${IMG} saved (25 min).`);
      const saved = confirmedPaths(h).filter((path) => path !== BAD_FILE && fieldsAt(h, path).topic_id === SCRIPT);
      expect(saved).toHaveLength(1);
      expect(textAt(h, saved[0])).toContain(`## Summary\n\n${IMG} ${BOLD}\n`);

      // The confirm modal for "use this note as a topic", whose name is markup; its broken properties give an error
      // notice.
      await openNote(h, BOLD_NOTE);
      await p.run("start-session");
      const useNote = topicPicker()
        .getSuggestions("")
        .find((c) => c.kind === "use-current-note");
      if (!useNote) throw new Error("no use-current-note suggestion");
      topicPicker().selectSuggestion(useNote, new MouseEvent("click"));
      await settle();
      const confirm = (modals() as readonly unknown[]).find((m): m is ConfirmModal => m instanceof ConfirmModal);
      if (!confirm) throw new Error("no confirm modal");
      expectRenderedAsText(`"${BOLD} ${LINK}" gets the property palee_id`);
      click(buttonByText(confirm.contentEl, "Use as topic"));
      await settle();
      expect(noticeLog()[noticeLog().length - 1]).toMatch(
        /^Could not add palee_id to "\*\*bold\*\* \[\[x\]\]\|#": its properties could not be read/,
      );
      expectRenderedAsText(`Could not add palee_id to "${BOLD} ${LINK}"`);

      // The settings tab: a device name with markup is accepted and shown as the field's value; a folder with
      // markup that leaves the vault is refused with an explanation quoting it.
      const tab = settingTab(p);
      tab.display();
      extra.push(tab.containerEl);
      type(settingRow(tab, "Device name").input, SCRIPT);
      type(settingRow(tab, "Session folder").input, `../${IMG}`);
      await settle();
      expect(h.app.loadLocalStorage(DEVICE_STORAGE_KEY)).toBe(SCRIPT);
      expect(settingRow(tab, "Session folder").error.textContent).toBe(`session folder "../${IMG}" leaves the vault`);
      expectRenderedAsText(`session folder "../${IMG}" leaves the vault`);
      tab.display(); // drawn again, with the stored name as the field's value
      extra.push(tab.containerEl);
      expect(settingRow(tab, "Device name").input.value).toBe(SCRIPT);
      expectRenderedAsText();
    },
  );

  it(
    "shows another device's session with a hostile device name and topic as text: notice, " +
      "status bar, menu, status, start",
    async () => {
      const PHONE = "DRAFT-S-0000bbbb";
      const h = harness({
        files: {
          [HOT]: hotText({ active_topic: IMG, started_at: at(-20), open_draft: PHONE, device: SCRIPT }),
          [S(PHONE)]: draftText(
            { session_id: PHONE, topic_id: IMG, device: SCRIPT, started_at: at(-20), last_checkpoint_at: at(-5) },
            `${BOLD}\n`,
          ),
        },
      });
      plugin = await loadPlugin(h, { device: "laptop" });
      const p = plugin;
      expect(statusText(p)).toBe(`${IMG} 0:20:00 (on ${SCRIPT})`);
      expectRenderedAsText(`A session on ${IMG} is open on ${SCRIPT} (since 11:40).`, `${IMG} 0:20:00 (on ${SCRIPT})`);

      await p.clickStatusBar();
      const status = p.lastMenu().find((item) => item.title === "Show session status");
      if (!status) throw new Error("no Show session status item");
      await status.click();
      await p.ribbon();
      expectRenderedAsText(
        `${IMG}: 0:20:00 so far\nStarted 11:40 on ${SCRIPT}`,
        `A session on ${IMG} is open on ${SCRIPT} (since 11:40). End it there first.`,
      );
    },
  );

  it("shows a recovery failure and a re-check notice naming a hostile device as text", async () => {
    const D = "DRAFT-S-0000cccc";
    const h = harness({
      files: {
        [HOT]: hotText(),
        [S(D)]: draftText({
          session_id: D,
          topic_id: LINK,
          device: "laptop",
          started_at: at(-90),
          last_checkpoint_at: at(-60),
        }),
      },
    });
    plugin = await loadPlugin(h, { device: "laptop" });
    expect(recoveryRows().map((r) => r.draftId)).toEqual([D]);
    // The draft is taken up on a device with a hostile name while the modal is open (sync delivers it).
    h.write(
      S(D),
      draftText({ session_id: D, topic_id: LINK, device: SCRIPT, started_at: at(-90), last_checkpoint_at: at(0) }),
    );
    await settle();
    await recoverAction(D, "discard");
    expectRenderedAsText(`${LINK} is now open on ${SCRIPT}`, `Open right now on ${SCRIPT}`);
    // Then the draft becomes unreadable; Save fails with an error notice quoting the file.
    h.write(S(D), `---\ntopic_id: ${IMG}\npalee_schema: [\n---\n`);
    await settle();
    await recoverAction(D, "save");
    expect(noticeLog()[noticeLog().length - 1]).toMatch(/^Could not save DRAFT-S-0000cccc: /);
    expectRenderedAsText(`${LINK} is now open on ${SCRIPT}`, "Could not save DRAFT-S-0000cccc");
  });
});

describe("honest time with a hostile topic (issue 11)", () => {
  it("shows the pause and away notices, the end dialog's silence and choices and the log dialog as text", async () => {
    const D = "DRAFT-S-0000dddd";
    const h = harness({
      files: {
        [HOT]: hotText({ active_topic: IMG, started_at: at(-5), open_draft: D, device: "laptop" }),
        [S(D)]: draftText({ session_id: D, topic_id: IMG, started_at: at(-5), last_checkpoint_at: at(-1) }),
        [S(PAST)]: confirmedText({ session_id: PAST, topic_id: SCRIPT }),
      },
    });
    plugin = await loadPlugin(h, { device: "laptop" });
    const p = plugin;
    await p.run("pause-session");
    expect(statusText(p)).toBe(`${IMG} 0:05:00 (paused)`);
    await p.run("continue-session");
    // A sleep: the clock moves without ticks, then one tick records the time away with its "Count it" button.
    jest.setSystemTime(Date.now() + 60 * 60_000);
    jest.advanceTimersByTime(1000);
    await settle();
    expectRenderedAsText(`Session on ${IMG} paused at 12:00.`, `Session on ${IMG} continues.`, "Away 12:00–13:00");
    // The end dialog after a silence (the clock moved again without ticks).
    jest.setSystemTime(Date.now() + 60 * 60_000);
    await p.run("end-session");
    type(endModal().contentEl.querySelector("input.palee-end-time"), `${IMG}`);
    expectRenderedAsText(`${IMG} · started 11:55`, "No activity since 13:00, 1 h ago", `"${IMG}" is not a time`);
    endModal().close();
    // The log dialog on the past session's legacy topic; markup typed into its fields.
    await p.run("log-session");
    const choice = topicPicker()
      .getSuggestions("")
      .find((c) => "topicId" in c && c.topicId === SCRIPT);
    if (!choice) throw new Error("no past-topic suggestion");
    topicPicker().selectSuggestion(choice, new MouseEvent("click"));
    await settle();
    const log = modals()[modals().length - 1];
    type(log.contentEl.querySelector(".palee-log-from"), IMG);
    click(buttonByText(log.contentEl, "Log session"));
    await settle();
    expect(log.contentEl.querySelector(".palee-log-error")).not.toBeNull();
    expect(log.contentEl.querySelector(".palee-log-error")?.textContent).not.toBe("");
    expectRenderedAsText(`Topic: ${SCRIPT}`);
  });
});

// ---- the session folder setting, spelled the Windows way -------------------------------------------------

describe("a session folder leaving the vault, typed with backslashes in the settings tab", () => {
  it.each([
    ["C:\\x", "not an absolute path"],
    ["c:x", "not an absolute path"],
    ["..\\x", "leaves the vault"],
    ["a\\..\\..\\x", "leaves the vault"],
    ["\\\\server\\share", "not an absolute path"],
    ["palee/..", "leaves the vault"],
  ])("refuses %j with an explanation and saves nothing", async (typed, explanation) => {
    const h = harness();
    plugin = await loadPlugin(h, { device: "laptop", data: { sessionFolder: "study/palee" } });
    const tab = settingTab(plugin);
    tab.display();
    const row = settingRow(tab, "Session folder");
    type(row.input, typed);
    await settle();
    expect(row.error.textContent).toContain(explanation);
    expect(plugin.saved()).toEqual({ sessionFolder: "study/palee" });
  });
});

describe("text from notes in the recovery modal (contract §6.9)", () => {
  it("shows a hostile topic ID and device name in the recovery modal as text, never as elements", async () => {
    const X = "DRAFT-S-0000eeee";
    const h = harness({
      files: {
        [HOT]: hotText(),
        [S(X)]: draftText({
          session_id: X,
          topic_id: '<img src=x onerror="alert(1)">',
          device: "<b>phone</b>",
          last_checkpoint_at: at(-60),
        }),
      },
    });
    await loadPlugin(h, { device: "laptop" });
    const row = recoveryModal().contentEl.querySelector(".palee-recovery-row");
    expect(row).not.toBeNull();
    expect(row?.querySelector("img, b")).toBeNull();
    expect(row?.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(row?.textContent).toContain("<b>phone</b>");
  });
});
