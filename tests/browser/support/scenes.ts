/**
 * The screens users judge the plugin by, rendered from the built main.js (as Obsidian loads it: its own
 * context, `require` knows only "obsidian") on the in-memory app of tests/plugin/support. Each scene returns
 * the element to photograph. Needs installPluginTestEnvironment() in the calling test file.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import type { Command, Plugin, SuggestModal } from "obsidian";
import * as obsidian from "obsidian-test-mocks/obsidian";
import type { Modal } from "obsidian-test-mocks/obsidian";
import { draftText, hotText } from "../../support/builders";
import { DEVICE_STORAGE_KEY } from "../../../src/plugin/adapters/device";
import type { ObsidianHarness } from "../../plugin/support/obsidian-harness";
import { MANIFEST, MINUTE, T0, harness, modals, settle } from "../../plugin/support/plugin-harness";
import { HOT, S } from "../../plugin/support/session-files";
import { modalFrame } from "./page";

const MAIN_JS = path.resolve(__dirname, "../../../main.js");

/**
 * The browser globals the bundle sees (jsdom's, where obsidian-test-mocks put its DOM helpers), and jest's
 * Date, so the fake clock reaches the plugin.
 */
const GLOBALS = ["Date", "window", "document", "navigator", "console", "crypto", "setTimeout", "clearTimeout", "setInterval", "clearInterval", "queueMicrotask", "MouseEvent", "KeyboardEvent", "Event", "HTMLElement", "Node", "createDiv", "createEl", "createSpan", "createFragment", "activeWindow", "activeDocument"];

interface Loaded {
  plugin: Plugin;
  command(id: string): Promise<void>;
}

/** Loads the built plugin on `h` for device "laptop" and lets the layout become ready. */
async function loadBuilt(h: ObsidianHarness): Promise<Loaded> {
  const sandbox: Record<string, unknown> = {};
  const globals = globalThis as unknown as Record<string, unknown>;
  for (const name of GLOBALS) if (name in globals) sandbox[name] = globals[name];
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = vm.runInContext(`(function (require, module, exports) {${readFileSync(MAIN_JS, "utf8")}\n})`, vm.createContext(sandbox), { filename: "main.js" }) as (
    require: (id: string) => unknown,
    module: { exports: Record<string, unknown> },
    exports: Record<string, unknown>,
  ) => void;
  wrapper((id) => {
    if (id === "obsidian") return obsidian;
    throw new Error(`main.js required "${id}"`);
  }, module, module.exports);
  h.app.saveLocalStorage(DEVICE_STORAGE_KEY, "laptop");
  const PluginClass = module.exports.default as new (app: unknown, manifest: typeof MANIFEST) => Plugin;
  const plugin = new PluginClass(h.app, MANIFEST);
  plugin.load();
  await settle();
  h.mock.workspace.setLayoutReady__();
  await settle();
  const commands = (plugin as unknown as { commands__: Map<string, Command> }).commands__;
  return {
    plugin,
    async command(id) {
      const c = commands.get(id);
      if (c?.checkCallback) c.checkCallback(false);
      else c?.callback?.();
      await settle();
    },
  };
}

type SettingParts = Record<"settingEl" | "infoEl" | "nameEl" | "descEl" | "controlEl", HTMLElement>;

/**
 * The mock's Setting has neither Obsidian's classes nor its order (info, then control): give it both, so the
 * stand-in stylesheet lays setting rows out as the app does. Call in beforeAll; returns the undo.
 */
export function obsidianSettingMarkup(): () => void {
  const spy = jest.spyOn(obsidian.Setting.prototype as unknown as { constructor__(el: HTMLElement): void }, "constructor__").mockImplementation(function (this: unknown) {
    const { settingEl, infoEl, nameEl, descEl, controlEl } = this as SettingParts;
    settingEl.addClass("setting-item");
    infoEl.addClass("setting-item-info");
    nameEl.addClass("setting-item-name");
    descEl.addClass("setting-item-description");
    controlEl.addClass("setting-item-control");
    settingEl.appendChild(controlEl);
  });
  return () => spy.mockRestore();
}

function lastModal(): Modal {
  const modal = modals()[modals().length - 1];
  if (!modal) throw new Error("no modal is open");
  return modal;
}

function framed(modal: Modal): HTMLElement {
  return modalFrame(modal.titleEl.textContent ?? "", modal.contentEl);
}

export interface Scene {
  name: string;
  render(): Promise<HTMLElement>;
}

/** The end dialog, 42 minutes into a session, with a summary and a next action typed in. */
async function endDialog(): Promise<HTMLElement> {
  jest.setSystemTime(T0);
  const p = await loadBuilt(harness());
  await p.command("start-session");
  const picker = lastModal() as unknown as SuggestModal<unknown>;
  const [choice] = await picker.getSuggestions("T-rust-ownership");
  picker.selectSuggestion(choice, new MouseEvent("click"));
  await settle();
  jest.setSystemTime(T0 + 42 * MINUTE);
  await p.command("end-session");
  const modal = lastModal();
  const summary = modal.contentEl.querySelector("textarea");
  const next = modal.contentEl.querySelector("input");
  if (summary) summary.value = "Moves, borrows and the two rules of the borrow checker; why a clone is explicit.";
  if (next) next.value = "Lifetimes in struct fields";
  const element = framed(modal);
  p.plugin.unload();
  return element;
}

/** The recovery dialog at start-up: two interrupted sessions, one of them from another device. */
async function recoveryDialog(): Promise<HTMLElement> {
  jest.setSystemTime(T0 + 3 * 60 * MINUTE);
  const a = "DRAFT-S-0000000a";
  const b = "DRAFT-S-0000000b";
  const h = harness({
    files: {
      [HOT]: hotText(),
      [S(a)]: draftText({ session_id: a, topic_id: "T-rust-ownership", started_at: "2026-08-14T08:00:00+00:00", last_checkpoint_at: "2026-08-14T08:35:00+00:00" }),
      [S(b)]: draftText({ session_id: b, topic_id: "T-spanish-subjunctive", started_at: "2026-08-14T10:10:00+00:00", last_checkpoint_at: "2026-08-14T10:30:00+00:00", device: "phone" }),
    },
  });
  const p = await loadBuilt(h);
  const element = framed(lastModal());
  p.plugin.unload();
  return element;
}

export const SCENES: readonly Scene[] = [
  { name: "end-dialog", render: endDialog },
  { name: "recovery-dialog", render: recoveryDialog },
  // When src/plugin/ui/history-view.ts lands: { name: "history-view", render: historyView },
  // with historyView opening the view through its command and returning its containerEl.
];
