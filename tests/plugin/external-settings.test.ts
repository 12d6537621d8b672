/**
 * Settings changed on another device (contract §5, fidelity to the app): Obsidian calls
 * onExternalSettingsChange when sync replaces data.json; the new values take effect without a restart and a
 * later local save keeps them.
 */
import {
  harness,
  installPluginTestEnvironment,
  lastNotice,
  loadPlugin,
  pickTopic,
  settingTab,
  typeSetting,
} from "./support/plugin-harness";
import { HOT, draftPaths, fieldsAt, onlyDraft, startOn } from "./support/session-files";

installPluginTestEnvironment();

describe("settings changed on another device", () => {
  it("take effect at once, and a later local save does not write the old values back", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop", data: { sessionFolder: "study/palee", keep: 1 } });
    await p.settingsChangedElsewhere({ sessionFolder: "school/palee", graceMinutes: 30, keep: 1 });
    expect(lastNotice()).toBe(
      'The session folder was changed on another device: sessions are now kept in "school/palee".',
    );
    const tab = settingTab(p);
    tab.display();
    expect(await typeSetting(tab, "Checkpoint interval", "10")).toBe("");
    expect(p.saved()).toEqual(expect.objectContaining({ sessionFolder: "school/palee", graceMinutes: 30, keep: 1 }));
    expect(p.saved()).toEqual(expect.objectContaining({ checkpointMinutes: 10 }));
    await p.ribbon();
    await pickTopic("T-rust-ownership");
    expect(draftPaths(h, "school/palee")).toHaveLength(1);
    expect(draftPaths(h, "study/palee")).toHaveLength(0);
  });

  it("say so when a session is open in the old folder, and leave that session as it is", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop", data: { askForSummary: false } });
    await startOn(p);
    const draft = onlyDraft(h);
    const before = h.files();
    await p.settingsChangedElsewhere({ sessionFolder: "school/palee" });
    expect(lastNotice()).toBe(
      'The session folder was changed on another device to "school/palee". The session on T-rust-ownership ' +
        'is still open in "palee": set the folder back to "palee" in settings to end or recover it there.',
    );
    expect(h.files()).toEqual(before);
    expect(fieldsAt(h, draft).status).toBe("draft");
    expect(fieldsAt(h, HOT).open_draft).not.toBeNull();
    expect(p.available("end-session")).toBe(false); // the new folder has no open session
  });

  it("change nothing visible when only other settings changed", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop" });
    await p.settingsChangedElsewhere({ showSeconds: false });
    expect(lastNotice()).toBe("");
    await startOn(p);
    expect(p.statusBar()?.textContent).toBe("T-rust-ownership 0:00");
  });
});
