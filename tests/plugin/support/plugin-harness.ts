/**
 * Loads the real plugin (src/main.ts) into the in-memory Obsidian of obsidian-harness.ts, with a fake wall
 * clock, and gives tests the learner's hands: run a command, click the ribbon or the status bar, pick in the
 * topic picker, fill the end modal, press a recovery button; and eyes: notices, open modals, the status bar.
 *
 * What it adds to obsidian-test-mocks (only what these tests need):
 * - modals stay open until closed (the mock closes every modal one timer tick after opening it), and the
 *   harness keeps the list of open ones;
 * - notices are recorded (the mock keeps none);
 * - the ribbon callback is kept (the mock drops it);
 * - buttons and text fields react to DOM events, as Obsidian's do (the mock only offers simulate helpers), so
 *   tests click and type on the rendered elements.
 */
import type { Command, PluginManifest, PluginSettingTab } from "obsidian";
import {
  AbstractTextComponent,
  ButtonComponent,
  Menu,
  Modal,
  Notice,
  Platform,
  Plugin,
} from "obsidian-test-mocks/obsidian";
import PaleeSessionsPlugin from "../../../src/main";
import { DEVICE_STORAGE_KEY } from "../../../src/plugin/adapters/device";
import { SAVED_TWICE_DELAY_MS } from "../../../src/plugin/flows/recovery";
import { QUIET_MS } from "../../../src/plugin/flows/sync-quiet";
import { EndSessionModal } from "../../../src/plugin/ui/end-modal";
import { RecoveryModal } from "../../../src/plugin/ui/recovery-modal";
import { TopicPickerModal } from "../../../src/plugin/ui/topic-picker";
import type { TopicChoice } from "../../../src/plugin/ui/topic-picker";
import type { HarnessOptions, ObsidianHarness } from "./obsidian-harness";
import { createObsidianHarness } from "./obsidian-harness";

export const MANIFEST: PluginManifest = {
  id: "palee-sessions",
  name: "PALEE Sessions",
  version: "0.1.0",
  minAppVersion: "1.8.7",
  description: "test",
  author: "test",
  isDesktopOnly: false,
};

/** 2026-08-14T12:00:00Z, a Friday. */
export const T0 = Date.UTC(2026, 7, 14, 12, 0, 0);
export const MINUTE = 60_000;

// ---- global patches (installed once per test file by installPluginTestEnvironment) --------------------

const openModals: Modal[] = [];
const notices: string[] = [];
/**
 * The plugin's one real timer, the saved-twice check SAVED_TWICE_DELAY_MS after start-up, held here instead of
 * firing on the wall clock: under load it fired in the middle of a later step and added its notice there. A
 * test that checks it runs it with runDeferredChecks.
 */
const deferredChecks: Array<() => void> = [];
let timeoutSpy: jest.SpyInstance | null = null;
/** Whether the fake clock is installed (plugin tests); the benchmark loads plugins on the real one. */
let fakeClock = false;
/** Plugins loaded and not yet unloaded: the harness unloads them after each test. */
const live: LoadedPlugin[] = [];
const menus: Menu[] = [];

type ModalInternals = { onOpen(): void; onClose(): void; open(): void; close(): void };

/**
 * Fake timers for Date and intervals (the plugin's timer and automatic checkpoints), real setTimeout so
 * `settle()` can wait for every pending promise chain; modal, notice and menu capture. Call at the top of a
 * test file.
 */
export function installPluginTestEnvironment(): void {
  const proto = Modal.prototype as unknown as ModalInternals;
  const originalOpen = proto.open;
  const originalClose = proto.close;
  let noticeSpy: jest.SpyInstance | null = null;
  let menuSpy: jest.SpyInstance | null = null;
  const platform = { ...Platform };

  const button = ButtonComponent.prototype as unknown as { onClick(cb: (e: MouseEvent) => unknown): unknown };
  const text = AbstractTextComponent.prototype as unknown as { onChange(cb: (value: string) => unknown): unknown };
  const originalOnClick = button.onClick;
  const originalOnChange = text.onChange;

  // Mock objects are strict proxies (unknown properties throw), so which ones are wired is kept aside.
  const wired = new WeakSet<object>();

  beforeAll(() => {
    button.onClick = function (this: { buttonEl: HTMLButtonElement; clickHandler?: (e: MouseEvent) => unknown }, cb) {
      originalOnClick.call(this, cb);
      if (!wired.has(this)) {
        wired.add(this);
        this.buttonEl.addEventListener("click", (event) => {
          if (!this.buttonEl.disabled) void this.clickHandler?.(event);
        });
      }
      return this;
    };
    text.onChange = function (this: { inputEl: HTMLInputElement; value: string; onChanged(): void }, cb) {
      originalOnChange.call(this, cb);
      if (!wired.has(this)) {
        wired.add(this);
        this.inputEl.addEventListener("input", () => {
          this.value = this.inputEl.value;
          this.onChanged();
        });
      }
      return this;
    };
    proto.open = function (this: Modal & ModalInternals) {
      openModals.push(this);
      this.onOpen();
    };
    proto.close = function (this: Modal & ModalInternals) {
      const at = openModals.indexOf(this);
      if (at === -1) return; // closing a closed modal does nothing, as in Obsidian
      openModals.splice(at, 1);
      this.onClose();
    };
  });
  afterAll(() => {
    button.onClick = originalOnClick;
    text.onChange = originalOnChange;
    proto.open = originalOpen;
    proto.close = originalClose;
  });
  beforeEach(() => {
    jest.useFakeTimers({
      now: T0,
      doNotFake: ["setTimeout", "clearTimeout", "setImmediate", "queueMicrotask", "nextTick"],
    });
    fakeClock = true;
    openModals.length = 0;
    notices.length = 0;
    menus.length = 0;
    noticeSpy = jest
      .spyOn(Notice.prototype, "constructor__")
      .mockImplementation((message: string | DocumentFragment) => {
        notices.push(typeof message === "string" ? message : (message.textContent ?? ""));
      });
    const realSetTimeout = window.setTimeout.bind(window) as (h: unknown, ms?: number, ...a: unknown[]) => number;
    timeoutSpy = jest.spyOn(window, "setTimeout").mockImplementation(((
      handler: (...args: unknown[]) => void,
      ms?: number,
      ...args: unknown[]
    ) => {
      if (ms !== SAVED_TWICE_DELAY_MS) return realSetTimeout(handler, ms, ...args);
      deferredChecks.push(() => handler(...args));
      return 0;
    }) as unknown as typeof window.setTimeout);
    menuSpy = jest.spyOn(Menu.prototype, "showAtMouseEvent").mockImplementation(function (this: Menu) {
      menus.push(this);
      return this;
    });
  });
  afterEach(() => {
    // A plugin left loaded by a test keeps its real timers (the saved-twice check 2 s after start-up): unloaded
    // here, so none of them acts, or notifies, during a later test.
    for (const p of live.splice(0)) p.unload();
    deferredChecks.length = 0;
    timeoutSpy?.mockRestore();
    noticeSpy?.mockRestore();
    menuSpy?.mockRestore();
    jest.useRealTimers();
    fakeClock = false;
    Object.assign(Platform, platform);
  });
}

/** Runs the timers the harness held (the saved-twice check after start-up), then lets their work finish. */
export async function runDeferredChecks(): Promise<void> {
  for (const check of deferredChecks.splice(0)) check();
  await settle();
}

/** Waits until every promise chain the plugin started has finished (none of them waits on a timer). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

// ---- one plugin instance -----------------------------------------------------------------------------

export interface LoadOptions {
  device?: string;
  /** What data.json holds. */
  data?: unknown;
  mobile?: boolean;
  /** Run onLayoutReady right after onload (default true). */
  layoutReady?: boolean;
  /**
   * Whether sync had delivered by the time the test looks (default true): layout ready is dated QUIET_MS
   * earlier, with nothing changed since, so other devices' drafts are offered at once. false: layout ready is
   * now, and the folder must stay quiet for QUIET_MS of ticks first (`syncSettles`).
   */
  syncSettled?: boolean;
}

export interface LoadedPlugin {
  plugin: PaleeSessionsPlugin;
  h: ObsidianHarness;
  ribbon(): Promise<void>;
  /** Runs a command as the palette would; false when its checkCallback says it is not available. */
  run(id: string): Promise<boolean>;
  available(id: string): boolean;
  commandIds(): string[];
  statusBar(): HTMLElement | null;
  clickStatusBar(): Promise<void>;
  /** The items of the last menu shown (title → click). */
  lastMenu(): Array<{ title: string; click: () => Promise<void> }>;
  saved(): unknown;
  /** data.json replaced from outside (another device, through sync), then Obsidian's notification of it. */
  settingsChangedElsewhere(data: unknown): Promise<void>;
  unload(): void;
  layoutReady(): Promise<void>;
}

type PluginMock = Plugin & {
  commands__: Map<string, Command>;
  statusBarItems__: HTMLElement[];
  data__: unknown;
};

export async function loadPlugin(h: ObsidianHarness, options: LoadOptions = {}): Promise<LoadedPlugin> {
  if (options.mobile !== undefined) Platform.isMobile = options.mobile;
  if (options.device !== undefined) h.app.saveLocalStorage(DEVICE_STORAGE_KEY, options.device);
  const plugin = new PaleeSessionsPlugin(h.app, MANIFEST);
  const mock = plugin as unknown as PluginMock;
  if (options.data !== undefined) mock.data__ = options.data;
  let ribbonCallback: ((evt: MouseEvent) => unknown) | null = null;
  // The mock drops the callback: keep it, so a test can click the ribbon icon.
  (plugin as unknown as { addRibbonIcon: Plugin["addRibbonIcon"] }).addRibbonIcon = (_icon, _title, callback) => {
    ribbonCallback = callback;
    return createDiv();
  };
  // A plugin loaded again on the same vault is the app opened again: its layout becomes ready after onload.
  (h.mock.workspace as unknown as { layoutReady: boolean }).layoutReady = false;
  plugin.load();
  await settle();
  const loaded: LoadedPlugin = {
    plugin,
    h,
    async ribbon() {
      if (!ribbonCallback) throw new Error("no ribbon icon was added");
      ribbonCallback(new MouseEvent("click"));
      await settle();
    },
    async run(id) {
      const command = mock.commands__.get(id);
      if (!command) throw new Error(`no command ${id}`);
      if (command.checkCallback) {
        if (!command.checkCallback(true)) return false;
        command.checkCallback(false);
      } else if (command.callback) {
        command.callback();
      } else throw new Error(`command ${id} has no callback`);
      await settle();
      return true;
    },
    available(id) {
      const command = mock.commands__.get(id);
      if (!command) throw new Error(`no command ${id}`);
      return command.checkCallback ? command.checkCallback(true) === true : true;
    },
    commandIds: () => [...mock.commands__.keys()].sort(),
    statusBar: () => mock.statusBarItems__[0] ?? null,
    async clickStatusBar() {
      const el = mock.statusBarItems__[0];
      if (!el) throw new Error("no status bar item");
      el.dispatchEvent(new MouseEvent("click"));
      await settle();
    },
    lastMenu() {
      const menu = menus[menus.length - 1] as unknown as
        { menuItems__: Array<{ title__: string; onClick__: (() => void) | null }> } | undefined;
      if (!menu) throw new Error("no menu was shown");
      return menu.menuItems__.map((item) => ({
        title: item.title__,
        click: async () => {
          item.onClick__?.();
          await settle();
        },
      }));
    },
    saved: () => mock.data__,
    async settingsChangedElsewhere(data) {
      mock.data__ = data;
      await plugin.onExternalSettingsChange();
      await settle();
    },
    unload() {
      const at = live.indexOf(loaded);
      if (at === -1) return; // already unloaded
      live.splice(at, 1);
      while (openModals.length > 0) openModals[openModals.length - 1].close();
      plugin.unload();
    },
    async layoutReady() {
      // onLayoutReady dates the start of the quiet synchronously; its work runs after the clock is back.
      const now = Date.now();
      const dated = fakeClock && options.syncSettled !== false;
      if (dated) jest.setSystemTime(now - QUIET_MS);
      h.mock.workspace.setLayoutReady__();
      if (dated) jest.setSystemTime(now);
      await settle();
    },
  };
  live.push(loaded);
  if (options.layoutReady !== false) await loaded.layoutReady();
  return loaded;
}

export function harness(options: HarnessOptions = {}): ObsidianHarness {
  return createObsidianHarness(options);
}

// ---- what the learner sees and does -------------------------------------------------------------------

export function noticeLog(): readonly string[] {
  return notices;
}

export function lastNotice(): string {
  return notices[notices.length - 1] ?? "";
}

export function clearNotices(): void {
  notices.length = 0;
}

export function modals(): readonly Modal[] {
  return openModals;
}

function theOnly<T>(type: abstract new (...args: never[]) => T, name: string): T {
  const found = openModals.filter((m): m is Modal & T => m instanceof type);
  if (found.length !== 1)
    throw new Error(
      `expected one open ${name}, found ${found.length} (open: ` +
        `${openModals.map((m) => m.constructor.name).join(", ") || "none"})`,
    );
  return found[0];
}

export function topicPicker(): TopicPickerModal {
  return theOnly(TopicPickerModal, "topic picker");
}

/** Types `query` into the topic picker and returns the suggestions it shows. */
export function suggestions(query: string): TopicChoice[] {
  return topicPicker().getSuggestions(query);
}

/** Picks the suggestion for `query` matching `pick` (default: the first), as a click would. */
export async function pickTopic(query: string, pick: (c: TopicChoice) => boolean = () => true): Promise<void> {
  const picker = topicPicker();
  const choice = picker.getSuggestions(query).find(pick);
  if (!choice) throw new Error(`no suggestion for ${JSON.stringify(query)} matches`);
  picker.selectSuggestion(choice, new MouseEvent("click"));
  await settle();
}

export function endModal(): EndSessionModal {
  return theOnly(EndSessionModal, "end modal");
}

/** Fills the end modal's fields as typing would and confirms with the button. */
export async function submitEnd(summary: string, nextAction: string): Promise<void> {
  const modal = endModal();
  type(modal.contentEl.querySelector("textarea"), summary);
  type(modal.contentEl.querySelector("input.palee-next-input"), nextAction);
  click(buttonByText(modal.contentEl, "End session"));
  await settle();
}

export function recoveryModal(): RecoveryModal {
  return theOnly(RecoveryModal, "recovery modal");
}

/** The recovery modal's rows: draft ID → the text shown. */
export function recoveryRows(): Array<{ draftId: string; text: string }> {
  const rows = recoveryModal().contentEl.querySelectorAll<HTMLElement>(".palee-recovery-row");
  return Array.from(rows).map((row) => ({ draftId: row.dataset.draftId ?? "", text: row.textContent ?? "" }));
}

/** Presses Resume / Save / Discard / Ignore on a draft's row. */
export async function recoverAction(draftId: string, action: "resume" | "save" | "discard" | "ignore"): Promise<void> {
  const row = recoveryModal().contentEl.querySelector<HTMLElement>(`.palee-recovery-row[data-draft-id="${draftId}"]`);
  if (!row) throw new Error(`no recovery row for ${draftId}`);
  const button = row.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`);
  if (!button) throw new Error(`no ${action} button for ${draftId}`);
  click(button);
  await settle();
}

export function buttonByText(root: HTMLElement, text: string): HTMLButtonElement {
  const button = Array.from(root.querySelectorAll("button")).find((b) => b.textContent === text);
  if (!button) throw new Error(`no button "${text}"`);
  return button;
}

export function click(el: Element | null): void {
  if (!el) throw new Error("nothing to click");
  el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
}

export function type(el: Element | null, value: string): void {
  if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) throw new Error("not a text field");
  el.value = value;
  el.dispatchEvent(new Event("input", { bubbles: true }));
}

/** Advances the fake clock one tick (1 s) at a time, letting each tick's work finish. */
export async function tickFor(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 1000) {
    jest.advanceTimersByTime(1000);
    await settle();
  }
}

/**
 * Lets the session folder stay quiet long enough after layout ready for the plugin to take sync as
 * delivered: the ticks of QUIET_MS go by with no file changed (other devices' drafts are offered then).
 */
export async function syncSettles(): Promise<void> {
  await tickFor(QUIET_MS);
}

/** The plugin's one settings tab. */
export function settingTab(p: LoadedPlugin): PluginSettingTab {
  const tabs = (p.plugin as unknown as { settingTabs__: PluginSettingTab[] }).settingTabs__;
  if (tabs.length !== 1) throw new Error(`expected one settings tab, found ${tabs.length}`);
  return tabs[0];
}

/** The settings row named `name`: its text field and the line where a refusal is explained. */
export function settingRow(tab: PluginSettingTab, name: string): { input: HTMLInputElement; error: HTMLElement } {
  for (const el of Array.from(tab.containerEl.querySelectorAll<HTMLElement>("div"))) {
    const named = Array.from(el.children).some(
      (child) => child.children.length === 2 && child.children[0].textContent === name,
    );
    const input = el.querySelector("input");
    const error = el.querySelector<HTMLElement>(".palee-setting-error");
    if (named && input && error) return { input, error };
  }
  throw new Error(`no settings row "${name}"`);
}

/** Types `value` into the settings row `name` and returns the refusal shown under it ("" when accepted). */
export async function typeSetting(tab: PluginSettingTab, name: string, value: string): Promise<string> {
  const r = settingRow(tab, name);
  type(r.input, value);
  await settle();
  return r.error.textContent ?? "";
}
