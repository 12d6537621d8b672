/**
 * What the plugin hands to Obsidian's link and view APIs (contract §5): links are resolved from a note, never
 * from a folder, and a failure to open the study history is said, not swallowed.
 */
import { WorkspaceLeaf } from "obsidian-test-mocks/obsidian";
import type { FlowContext } from "../../src/plugin/flows/context";
import { historySource } from "../../src/plugin/flows/history-source";
import { harness, installPluginTestEnvironment, lastNotice, loadPlugin, pickTopic } from "./support/plugin-harness";
import type { LoadedPlugin } from "./support/plugin-harness";

installPluginTestEnvironment();

const RUST_NOTE = "notes/Rust ownership.md";
const RUST_NOTE_TEXT = "---\npalee_id: T-rust-ownership\n---\nMoves, borrows and lifetimes.\n";

const flowsOf = (p: LoadedPlugin): FlowContext => (p.plugin as unknown as { flows: FlowContext }).flows;

describe("link source paths", () => {
  it("links a topic note from a note of the sessions folder, not from a folder", async () => {
    const h = harness({ files: { [RUST_NOTE]: RUST_NOTE_TEXT } });
    const p = await loadPlugin(h);
    const linktext = jest.spyOn(h.app.metadataCache, "fileToLinktext");
    await p.ribbon();
    await pickTopic("", (c) => c.kind === "topic-note");
    expect(linktext).toHaveBeenCalledTimes(1);
    expect(linktext.mock.calls[0][1]).toMatch(/^palee\/sessions\/[^/]+\.md$/);
  });

  it("opens a link of the study history from the index note, not from a folder", async () => {
    const h = harness();
    const p = await loadPlugin(h);
    const open = jest.spyOn(h.app.workspace, "openLinkText").mockResolvedValue(undefined);
    historySource(flowsOf(p)).actions.openLink("S-20260813T100000-abcd", false);
    expect(open).toHaveBeenCalledWith("S-20260813T100000-abcd", "palee/index.md", false);
  });
});

describe("the open-history command", () => {
  it("says so when Obsidian cannot show the view", async () => {
    const h = harness();
    const p = await loadPlugin(h);
    const logged = jest.spyOn(console, "error").mockImplementation(() => undefined);
    jest.spyOn(WorkspaceLeaf.prototype, "setViewState").mockRejectedValue(new Error("view type not registered"));
    await p.run("open-history");
    expect(lastNotice()).toBe("Could not open the study history: view type not registered");
    expect(logged).toHaveBeenCalledTimes(1);
  });
});
