/**
 * The built main.js, as Obsidian loads it (contract §5: mobile-compatible, no Node or Electron APIs): evaluated
 * in its own V8 context whose `require` knows only "obsidian", then loaded on an in-memory app. `npm test`
 * builds main.js before jest; run `npm run build` first when running jest alone.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import type { Command, Plugin, SuggestModal } from "obsidian";
import * as obsidian from "obsidian-test-mocks/obsidian";
import { MANIFEST, harness, installPluginTestEnvironment, modals, settle } from "./support/plugin-harness";
import { HOT, fieldsAt, idOf, onlyDraft } from "./support/session-files";

installPluginTestEnvironment();

const MAIN_JS = path.resolve(__dirname, "../../main.js");
// The budget of 256 KB (262 144 bytes): a smoke alarm, never a reason to move code (docs/adr/0005-main-js-budget.md).
const SIZE_BUDGET = 256 * 1024;

/** The stable command ids (contract §5): users bind hotkeys to them. */
const STABLE_COMMAND_IDS = [
  "start-session",
  "save-checkpoint",
  "end-session",
  "recover-drafts",
  "show-status",
  "open-working-memory",
  "open-session-note",
  "copy-working-memory",
  "copy-tutor-brief",
  "rebuild-views",
  "import-palee-folder",
  "open-history",
  "export-sessions",
  "copy-sessions-csv",
  "create-sessions-base",
  "pause-session",
  "continue-session",
  "log-session",
  "set-goals",
  "open-year",
  "study-next",
];

function mainJs(): string {
  if (!existsSync(MAIN_JS))
    throw new Error(`${MAIN_JS} does not exist: run "npm run build" (npm test does) before jest`);
  return readFileSync(MAIN_JS, "utf8");
}

/**
 * The browser globals Obsidian's window offers the plugin (taken from jsdom, where obsidian-test-mocks put
 * its DOM helpers). No `process`, `Buffer`, `global` or `require`: Node's are not there on mobile.
 */
const BROWSER_GLOBALS = [
  "window",
  "document",
  "navigator",
  "console",
  "crypto",
  "setTimeout",
  "clearTimeout",
  "setInterval",
  "clearInterval",
  "queueMicrotask",
  "MouseEvent",
  "KeyboardEvent",
  "Event",
  "HTMLElement",
  "Node",
  "createDiv",
  "createEl",
  "createSpan",
  "createFragment",
  "activeWindow",
  "activeDocument",
] as const;

interface Evaluated {
  exports: Record<string, unknown>;
  /** Every module main.js asked `require` for, in order. */
  required: string[];
  context: vm.Context;
}

/** Evaluates main.js as CommonJS in a fresh context where `require` resolves "obsidian" only. */
function evaluateBundle(code: string): Evaluated {
  const sandbox: Record<string, unknown> = {};
  const globals = globalThis as unknown as Record<string, unknown>;
  for (const name of BROWSER_GLOBALS) if (name in globals) sandbox[name] = globals[name];
  const context = vm.createContext(sandbox);
  const required: string[] = [];
  const module = { exports: {} as Record<string, unknown> };
  const requireOnlyObsidian = (id: string): unknown => {
    required.push(id);
    if (id === "obsidian") return obsidian;
    throw new Error(`main.js required "${id}": only "obsidian" exists in the app (mobile has no Node or Electron)`);
  };
  const wrapper = vm.runInContext(`(function (require, module, exports) {${code}\n})`, context, {
    filename: "main.js",
  }) as (
    require: (id: string) => unknown,
    module: { exports: Record<string, unknown> },
    exports: Record<string, unknown>,
  ) => void;
  wrapper(requireOnlyObsidian, module, module.exports);
  return { exports: module.exports, required, context };
}

type PluginClass = new (app: unknown, manifest: typeof MANIFEST) => Plugin;

interface BundlePlugin {
  plugin: Plugin;
  commands: Map<string, Command>;
}

async function loadBundle(h: ReturnType<typeof harness>): Promise<BundlePlugin> {
  const { exports } = evaluateBundle(mainJs());
  const PaleeSessions = exports.default as PluginClass;
  expect(typeof PaleeSessions).toBe("function");
  const plugin = new PaleeSessions(h.app, MANIFEST);
  expect(plugin).toBeInstanceOf(obsidian.Plugin);
  plugin.load();
  await settle();
  h.mock.workspace.setLayoutReady__();
  await settle();
  return { plugin, commands: (plugin as unknown as { commands__: Map<string, Command> }).commands__ };
}

describe("main.js as a file", () => {
  it("requires nothing but obsidian", () => {
    const code = mainJs();
    const requires = [...code.matchAll(/\brequire\b\s*(\(\s*[^)]*\))?/g)].map((m) => m[0].replace(/\s+/g, ""));
    expect(requires.length).toBeGreaterThan(0);
    expect(new Set(requires)).toEqual(new Set(['require("obsidian")']));
    expect(code).not.toMatch(/\bimport\s*\(/); // no dynamic import either
  });

  it(`is at most ${SIZE_BUDGET / 1024} KB`, () => {
    mainJs();
    expect(statSync(MAIN_JS).size).toBeLessThanOrEqual(SIZE_BUDGET);
  });

  it("does not bundle js-yaml (the plugin parses YAML with Obsidian's parser)", () => {
    expect(mainJs()).not.toMatch(/js-yaml|YAMLException/);
  });
});

describe("main.js loaded as Obsidian loads it", () => {
  it("evaluates in a context where require knows only obsidian, and exports the plugin class", () => {
    const { exports, required, context } = evaluateBundle(mainJs());
    // The context really is a browser's: none of Node's globals leaked into it.
    expect(
      vm.runInContext("[typeof process, typeof Buffer, typeof global, typeof require, typeof module]", context),
    ).toEqual(["undefined", "undefined", "undefined", "undefined", "undefined"]);
    expect(new Set(required)).toEqual(new Set(["obsidian"]));
    expect(typeof exports.default).toBe("function");
  });

  it("would refuse a bundle that requires a Node module (the loader itself is strict)", () => {
    expect(() => evaluateBundle('require("obsidian"); require("fs");')).toThrow('main.js required "fs"');
    expect(() => evaluateBundle("process.exit(1);")).toThrow(/process is not defined/);
  });

  it("registers the commands under their stable ids on load", async () => {
    const h = harness();
    const { commands } = await loadBundle(h);
    expect([...commands.keys()].sort()).toEqual([...STABLE_COMMAND_IDS].sort());
    for (const id of STABLE_COMMAND_IDS) {
      const command = commands.get(id);
      expect(command?.name).toMatch(/^[A-Z]/);
      expect(command?.hotkeys ?? []).toEqual([]); // no default hotkeys
    }
  });

  it("starts a session from its start-session command", async () => {
    const h = harness();
    const { commands } = await loadBundle(h);
    commands.get("start-session")?.callback?.();
    await settle();
    expect(modals()).toHaveLength(1);
    const picker = modals()[0] as unknown as SuggestModal<unknown>;
    const [choice] = picker.getSuggestions("T-rust-ownership") as unknown[];
    picker.selectSuggestion(choice, new MouseEvent("click"));
    await settle();
    const draft = onlyDraft(h);
    expect(fieldsAt(h, draft)).toMatchObject({ palee_schema: 1, topic_id: "T-rust-ownership", status: "draft" });
    expect(fieldsAt(h, HOT)).toMatchObject({ active_topic: "T-rust-ownership", open_draft: idOf(draft) });
    expect(commands.get("end-session")?.checkCallback?.(true)).toBe(true);
  });
});
