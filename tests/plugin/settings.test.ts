/**
 * Settings (contract §5): read from data.json over fresh copies of the defaults, unknown keys kept, bad values
 * replaced; the settings tab refuses folders Obsidian would not index or that leave the vault, refuses
 * moving the folder under an open session, validates numbers and the device name; and Obsidian 1.13's
 * setting definitions build the same controls as display().
 */
import type { PluginSettingTab, Setting as SettingOriginal } from "obsidian";
import { Setting } from "obsidian-test-mocks/obsidian";
import { DEVICE_STORAGE_KEY } from "../../src/plugin/adapters/device";
import { DEFAULT_SETTINGS, settingsFrom, toSaved } from "../../src/plugin/settings";
import type { LoadedPlugin } from "./support/plugin-harness";
import {
  MINUTE,
  T0,
  endModal,
  harness,
  installPluginTestEnvironment,
  loadPlugin,
  modals,
  pickTopic,
  settle,
  type,
  settingRow,
  tickFor,
  typeSetting,
} from "./support/plugin-harness";
import { at, draftPaths, fieldsAt, onlyDraft, textAt, S, startOn } from "./support/session-files";

installPluginTestEnvironment();

const DEFAULTS_AS_SHIPPED = {
  sessionFolder: "palee",
  checkpointMinutes: 5,
  graceMinutes: 15,
  askForSummary: true,
  askRecall: true,
  showSeconds: true,
  dailyNote: false,
  dailyNoteHeading: "## Study sessions",
};

const ROW_NAMES = [
  "Session folder",
  "Checkpoint interval",
  "Recovery grace period",
  "Device name",
  "Ask for a summary",
  "Ask what I remember when ending",
  "Show seconds",
  "Log sessions in the daily note",
  "Daily note heading",
];

interface DefinitionTab {
  getSettingDefinitions(): Array<{ name: string; desc: string; render: (setting: SettingOriginal) => void }>;
  update(): void;
  renderTab__(): void;
}

/** The plugin's settings tab (the mock plugin keeps the tabs it was given). */
function settingTab(p: LoadedPlugin): PluginSettingTab & DefinitionTab {
  const tabs = (p.plugin as unknown as { settingTabs__: PluginSettingTab[] }).settingTabs__;
  if (tabs.length !== 1) throw new Error(`expected one settings tab, found ${tabs.length}`);
  return tabs[0] as PluginSettingTab & DefinitionTab;
}

/** One row of the displayed tab, by its name: its text field and the line where a refusal is explained. */
interface Row {
  el: HTMLElement;
  input: HTMLInputElement;
  error: HTMLElement;
}

/**
 * The settings rows of a container by name, whichever way they were rendered (display() or the definition
 * renderer). A row is a Setting's element: it holds the control and the info element, whose first child is
 * the name.
 */
function rowsIn(container: HTMLElement): Map<string, HTMLElement> {
  const rows = new Map<string, HTMLElement>();
  for (const el of Array.from(container.querySelectorAll<HTMLElement>("div"))) {
    for (const child of Array.from(el.children)) {
      const name = child.children.length === 2 ? child.children[0].textContent : null;
      if (name && ROW_NAMES.includes(name)) rows.set(name, el);
    }
  }
  return rows;
}

/** The text fields of a row, as [type, value]. */
function inputsOf(el: HTMLElement | undefined): string[][] {
  return Array.from(el?.querySelectorAll("input") ?? []).map((i) => [i.type, i.value]);
}

function row(tab: PluginSettingTab, name: string): Row {
  const el = rowsIn(tab.containerEl).get(name);
  if (!el) throw new Error(`no settings row "${name}" (rows: ${[...rowsIn(tab.containerEl).keys()].join(", ")})`);
  const input = el.querySelector("input");
  const error = el.querySelector<HTMLElement>(".palee-setting-error");
  if (!input || !error) throw new Error(`settings row "${name}" has no text field`);
  return { el, input, error };
}

/** Types `value` into the row's field and leaves the field (which commits a session folder). */
async function typeInto(tab: PluginSettingTab, name: string, value: string): Promise<Row> {
  const r = row(tab, name);
  type(r.input, value);
  r.input.dispatchEvent(new Event("change", { bubbles: true }));
  await settle();
  return r;
}

async function opened(
  data?: unknown,
): Promise<{ p: LoadedPlugin; tab: PluginSettingTab & DefinitionTab; h: ReturnType<typeof harness> }> {
  const h = harness();
  const p = await loadPlugin(h, { device: "laptop", data });
  const tab = settingTab(p);
  tab.display();
  return { p, tab, h };
}

async function startSession(p: LoadedPlugin, topic = "T-rust-ownership"): Promise<void> {
  await p.ribbon();
  await pickTopic(topic);
}

describe("settings from data.json", () => {
  it("are a fresh copy of the defaults when nothing is saved, and the defaults stay as shipped", () => {
    const settings = settingsFrom(undefined);
    expect(settings).toEqual(DEFAULTS_AS_SHIPPED);
    expect(settings).not.toBe(DEFAULT_SETTINGS);
    settings.sessionFolder = "elsewhere";
    settings.checkpointMinutes = 99;
    expect(DEFAULT_SETTINGS).toEqual(DEFAULTS_AS_SHIPPED);
    expect(settingsFrom(null)).toEqual(DEFAULTS_AS_SHIPPED);
  });

  it("never change the defaults when the settings tab changes a setting", async () => {
    const { tab, p } = await opened();
    await typeInto(tab, "Checkpoint interval", "10");
    await typeInto(tab, "Session folder", "study/palee");
    expect((p.saved() as Record<string, unknown>).checkpointMinutes).toBe(10);
    expect(DEFAULT_SETTINGS).toEqual(DEFAULTS_AS_SHIPPED);
    expect(settingsFrom({})).toEqual(DEFAULTS_AS_SHIPPED);
  });

  it("are not shared between two plugin instances (two vaults)", async () => {
    const a = await opened();
    const b = await opened();
    await typeInto(a.tab, "Session folder", "study/palee");
    await startSession(b.p);
    expect(draftPaths(b.h)).toHaveLength(1);
    expect(Object.keys(b.h.files()).every((path) => path.startsWith("palee/"))).toBe(true);
    b.tab.display();
    expect(row(b.tab, "Session folder").input.value).toBe("palee");
  });

  it("keep unknown saved keys when a setting is saved", async () => {
    const { tab, p } = await opened({ sessionFolder: "study/palee", futureKey: { x: 1 } });
    await typeInto(tab, "Checkpoint interval", "10");
    expect(p.saved()).toEqual({
      sessionFolder: "study/palee",
      futureKey: { x: 1 },
      checkpointMinutes: 10,
      graceMinutes: 15,
      askForSummary: true,
      askRecall: true,
      showSeconds: true,
      dailyNote: false,
      dailyNoteHeading: "## Study sessions",
    });
  });

  it("fall back to the defaults for hand-edited bad values, and show the defaults in the tab", async () => {
    const bad = {
      sessionFolder: "../outside",
      checkpointMinutes: -3,
      graceMinutes: 0,
      askForSummary: "yes",
      showSeconds: 1,
    };
    expect(settingsFrom(bad)).toEqual(DEFAULTS_AS_SHIPPED);
    expect(settingsFrom({ sessionFolder: ".palee", checkpointMinutes: 2.5, graceMinutes: "abc" })).toEqual(
      DEFAULTS_AS_SHIPPED,
    );
    expect(settingsFrom({ sessionFolder: "/abs", checkpointMinutes: 121, graceMinutes: 24 * 60 + 1 })).toEqual(
      DEFAULTS_AS_SHIPPED,
    );
    expect(settingsFrom([1, 2])).toEqual(DEFAULTS_AS_SHIPPED);

    const { tab, p, h } = await opened(bad);
    expect(row(tab, "Session folder").input.value).toBe("palee");
    expect(row(tab, "Checkpoint interval").input.value).toBe("5");
    expect(row(tab, "Recovery grace period").input.value).toBe("15");
    // And the plugin behaves with them: sessions go to the default folder; ending asks for a summary.
    await startSession(p);
    expect(draftPaths(h)).toHaveLength(1);
    await p.ribbon();
    expect(endModal()).toBeDefined();
  });

  it("take well-formed saved values, normalizing the folder", () => {
    expect(
      settingsFrom({
        sessionFolder: " Study//palee/ ",
        checkpointMinutes: 0,
        graceMinutes: "30",
        askForSummary: false,
        askRecall: false,
        showSeconds: false,
        dailyNote: true,
        dailyNoteHeading: "Log",
      }),
    ).toEqual({
      sessionFolder: "Study/palee",
      checkpointMinutes: 0,
      graceMinutes: 30,
      askForSummary: false,
      askRecall: false,
      showSeconds: false,
      dailyNote: true,
      dailyNoteHeading: "## Log",
    });
  });

  it("are saved with the unknown keys first kept, known keys replaced", () => {
    expect(toSaved({ futureKey: 1, sessionFolder: "old" }, { ...DEFAULT_SETTINGS })).toEqual({
      futureKey: 1,
      ...DEFAULTS_AS_SHIPPED,
    });
    expect(toSaved("garbage", { ...DEFAULT_SETTINGS })).toEqual(DEFAULTS_AS_SHIPPED);
  });
});

describe("the session folder in the settings tab", () => {
  it.each([
    [".palee", "hidden"],
    ["notes/.palee", "hidden"],
    ["../x", "leaves the vault"],
    ["a/../../x", "leaves the vault"],
    ["/abs", "not an absolute path"],
    ["C:/palee", "not an absolute path"],
    ["   ", "must not be empty"],
  ])("refuses %j with an explanation and keeps the saved folder", async (typed, explanation) => {
    const { tab, p, h } = await opened({ sessionFolder: "study/palee" });
    const r = await typeInto(tab, "Session folder", typed);
    expect(r.error.textContent).toContain(explanation);
    expect(p.saved()).toEqual({ sessionFolder: "study/palee" }); // not saved again
    // Sessions still go to the saved folder.
    await startSession(p);
    expect(draftPaths(h, "study/palee")).toHaveLength(1);
  });

  it("explains why a dot-folder is refused: Obsidian does not index it", async () => {
    const { tab } = await opened();
    const r = await typeInto(tab, "Session folder", ".palee");
    expect(r.error.textContent).toBe(
      'session folder ".palee" is hidden: Obsidian does not index dot-folders, so links, search ' +
        "and sync would ignore your sessions",
    );
  });

  it("saves a valid folder, normalized, and new sessions go there", async () => {
    const { tab, p, h } = await opened();
    const r = await typeInto(tab, "Session folder", " study//palee/ ");
    expect(r.error.textContent).toBe("");
    expect((p.saved() as Record<string, unknown>).sessionFolder).toBe("study/palee");

    await startSession(p);
    const draft = onlyDraft(h, "study/palee");
    expect(fieldsAt(h, "study/palee/hot.md").open_draft).toBe(draft.slice(draft.lastIndexOf("/") + 1, -3));
    expect(Object.keys(h.files()).filter((path) => path.startsWith("palee/"))).toEqual([]);
  });

  it("saves the folder on Enter or on leaving the field, never a half-typed one on each keystroke", async () => {
    const { tab, p } = await opened();
    const r = row(tab, "Session folder");
    for (const partial of ["s", "st", "study", "study/"]) type(r.input, partial);
    await settle();
    expect(p.saved()).toEqual({}); // nothing written to data.json yet
    type(r.input, "study/palee");
    r.input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
    await settle();
    expect((p.saved() as Record<string, unknown>).sessionFolder).toBe("study/palee");
    type(r.input, "school");
    await settle();
    expect((p.saved() as Record<string, unknown>).sessionFolder).toBe("study/palee");
    r.input.dispatchEvent(new Event("change"));
    await settle();
    expect((p.saved() as Record<string, unknown>).sessionFolder).toBe("school");
  });

  it("clears an earlier explanation once the folder is valid", async () => {
    const { tab } = await opened();
    expect((await typeInto(tab, "Session folder", ".palee")).error.textContent).not.toBe("");
    expect((await typeInto(tab, "Session folder", "study/palee")).error.textContent).toBe("");
  });

  it("refuses to move the folder while a session is open, with an explanation", async () => {
    const { tab, p, h } = await opened();
    await startSession(p);
    const before = h.files();
    const r = await typeInto(tab, "Session folder", "study/palee");
    expect(r.error.textContent).toBe(
      "A session is open in the current folder: end it before moving the session folder.",
    );
    expect(p.saved()).toEqual({}); // data.json as it was: nothing saved
    expect(h.files()).toEqual(before);
    // The open session is still this folder's, and can be ended there.
    expect(p.available("end-session")).toBe(true);
    jest.setSystemTime(T0 + 20 * MINUTE);
    await p.run("end-session");
    expect(modals()).toHaveLength(1);
  });
});

describe("numbers and the device name in the settings tab", () => {
  it.each(["abc", "-1", "2.5", "121", ""])("refuses checkpoint interval %j and keeps the saved one", async (typed) => {
    const { tab, p } = await opened({ checkpointMinutes: 7 });
    const r = await typeInto(tab, "Checkpoint interval", typed);
    expect(r.error.textContent).toBe("Enter a whole number from 0 to 120.");
    expect(p.saved()).toEqual({ checkpointMinutes: 7 });
  });

  it("accepts a checkpoint interval of 10, and automatic checkpoints follow it", async () => {
    const { tab, p, h } = await opened();
    const r = await typeInto(tab, "Checkpoint interval", "10");
    expect(r.error.textContent).toBe("");
    expect((p.saved() as Record<string, unknown>).checkpointMinutes).toBe(10);

    await startSession(p);
    const draft = onlyDraft(h);
    jest.advanceTimersByTime(6 * MINUTE);
    await settle();
    expect(fieldsAt(h, draft).last_checkpoint_at).toBe(at(0)); // the default 5 minutes no longer applies
    jest.advanceTimersByTime(4 * MINUTE);
    await settle();
    expect(fieldsAt(h, draft).last_checkpoint_at).toBe(at(10));
  });

  it("refuses a grace period of 0 and accepts 30", async () => {
    const { tab, p } = await opened();
    expect((await typeInto(tab, "Recovery grace period", "0")).error.textContent).toBe(
      "Enter a whole number from 1 to 1440.",
    );
    expect(p.saved()).toEqual({}); // data.json as it was: nothing saved
    await typeInto(tab, "Recovery grace period", "30");
    expect((p.saved() as Record<string, unknown>).graceMinutes).toBe(30);
  });

  it("shows this device's name, refuses an empty one and keeps the stored name", async () => {
    const { tab, h } = await opened();
    expect(row(tab, "Device name").input.value).toBe("laptop");
    const r = await typeInto(tab, "Device name", "   ");
    expect(r.error.textContent).toBe("The device name must be one line of 1 to 60 characters.");
    expect(h.app.loadLocalStorage(DEVICE_STORAGE_KEY)).toBe("laptop");
    await typeInto(tab, "Device name", "");
    expect(h.app.loadLocalStorage(DEVICE_STORAGE_KEY)).toBe("laptop");
  });

  it("refuses a device name longer than 60 characters", async () => {
    const { tab, h } = await opened();
    const r = await typeInto(tab, "Device name", "x".repeat(61));
    expect(r.error.textContent).not.toBe("");
    expect(h.app.loadLocalStorage(DEVICE_STORAGE_KEY)).toBe("laptop");
  });

  it("stores a new device name on this device only, and new drafts carry it", async () => {
    const { tab, p, h } = await opened();
    const r = await typeInto(tab, "Device name", " study desk ");
    expect(r.error.textContent).toBe("");
    expect(h.app.loadLocalStorage(DEVICE_STORAGE_KEY)).toBe("study desk");
    expect(JSON.stringify(p.saved())).not.toContain("study desk"); // not in data.json, which syncs
    await startSession(p);
    expect(fieldsAt(h, onlyDraft(h)).device).toBe("study desk");
    expect(textAt(h, "palee/hot.md")).toContain('device: "study desk"');
  });
});

describe("setting definitions (Obsidian 1.13+)", () => {
  it("has one definition per setting, each with a name, a description and a render function", async () => {
    const { tab } = await opened();
    const definitions = tab.getSettingDefinitions();
    expect(definitions.map((d) => d.name)).toEqual(ROW_NAMES);
    for (const d of definitions) {
      expect(d.desc.length).toBeGreaterThan(10);
      expect(typeof d.render).toBe("function");
    }
  });

  it("renders each definition into the same control as display()", async () => {
    const { tab } = await opened({ sessionFolder: "study/palee", checkpointMinutes: 7 });
    const displayed = rowsIn(tab.containerEl);
    expect([...displayed.keys()]).toEqual(ROW_NAMES);
    for (const d of tab.getSettingDefinitions()) {
      const container = createDiv();
      const setting = new Setting(container).setName(d.name).setDesc(d.desc);
      d.render(setting.asOriginalType__());
      const rendered = rowsIn(container).get(d.name);
      expect({ name: d.name, inputs: inputsOf(rendered) }).toEqual({
        name: d.name,
        inputs: inputsOf(displayed.get(d.name)),
      });
      expect(rendered?.querySelectorAll(".palee-setting-error").length).toBe(
        displayed.get(d.name)?.querySelectorAll(".palee-setting-error").length,
      );
    }
    expect(inputsOf(displayed.get("Session folder"))).toEqual([["text", "study/palee"]]);
    expect(inputsOf(displayed.get("Checkpoint interval"))).toEqual([["number", "7"]]);
    expect(inputsOf(displayed.get("Device name"))).toEqual([["text", "laptop"]]);
  });

  it(
    "renders working controls through Obsidian's definition renderer: the folder refusal works " + "there too",
    async () => {
      const { tab, p } = await opened();
      tab.update();
      tab.renderTab__();
      expect([...rowsIn(tab.containerEl).keys()]).toEqual(ROW_NAMES);
      const r = await typeInto(tab, "Session folder", ".palee");
      expect(r.error.textContent).toContain("hidden");
      expect(p.saved()).toEqual({}); // data.json as it was: nothing saved
      await typeInto(tab, "Session folder", "study/palee");
      expect((p.saved() as Record<string, unknown>).sessionFolder).toBe("study/palee");
    },
  );
});

describe("the checkpoint interval must be shorter than the grace period", () => {
  it("refuses an interval equal to the grace period, with the explanation, and saves nothing", async () => {
    const p = await loadPlugin(harness(), { device: "laptop", data: { graceMinutes: 15 } });
    const tab = settingTab(p);
    tab.display();
    expect(await typeSetting(tab, "Checkpoint interval", "15")).toBe(
      "The checkpoint interval (15 min) must be shorter than the recovery grace period (15 min), " +
        "or other devices would take a running session for an interrupted one.",
    );
    expect(p.saved()).toEqual({ graceMinutes: 15 });
    expect(await typeSetting(tab, "Checkpoint interval", "20")).toMatch(
      /must be shorter than the recovery grace period \(15 min\)/,
    );
    expect(p.saved()).toEqual({ graceMinutes: 15 });
    // A valid one is then accepted and clears the explanation.
    expect(await typeSetting(tab, "Checkpoint interval", "14")).toBe("");
    expect((p.saved() as Record<string, unknown>).checkpointMinutes).toBe(14);
  });

  it("refuses a grace period equal to or shorter than the interval, and saves nothing", async () => {
    const p = await loadPlugin(harness(), { device: "laptop", data: { checkpointMinutes: 10 } });
    const tab = settingTab(p);
    tab.display();
    expect(await typeSetting(tab, "Recovery grace period", "10")).toBe(
      "The checkpoint interval (10 min) must be shorter than the recovery grace period (10 min), " +
        "or other devices would take a running session for an interrupted one.",
    );
    expect(await typeSetting(tab, "Recovery grace period", "7")).toMatch(
      /^The checkpoint interval \(10 min\) must be shorter than the recovery grace period \(7 min\)/,
    );
    expect(p.saved()).toEqual({ checkpointMinutes: 10 });
    expect(await typeSetting(tab, "Recovery grace period", "11")).toBe("");
    expect((p.saved() as Record<string, unknown>).graceMinutes).toBe(11);
  });

  it("allows any grace period when automatic checkpoints are off (interval 0)", async () => {
    const p = await loadPlugin(harness(), { device: "laptop", data: { checkpointMinutes: 0 } });
    const tab = settingTab(p);
    tab.display();
    expect(await typeSetting(tab, "Recovery grace period", "1")).toBe("");
    expect((p.saved() as Record<string, unknown>).graceMinutes).toBe(1);
  });

  it(
    "loads data.json with an interval of 30 and a grace period of 15 as the defaults (5 and " +
      "15), and checkpoints every 5 minutes",
    async () => {
      const h = harness();
      const p = await loadPlugin(h, { device: "laptop", data: { checkpointMinutes: 30, graceMinutes: 15 } });
      const tab = settingTab(p);
      tab.display();
      expect(settingRow(tab, "Checkpoint interval").input.value).toBe("5");
      expect(settingRow(tab, "Recovery grace period").input.value).toBe("15");
      const draftId = await startOn(p);
      await tickFor(5 * MINUTE);
      expect(fieldsAt(h, S(draftId)).last_checkpoint_at).toBe(at(5));
    },
  );
});
