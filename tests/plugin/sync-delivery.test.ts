/**
 * Sync delivers after layout ready and writes while the plugin does (contract §5, fidelity to the app):
 * another device's draft is offered for recovery only once the session folder has been quiet for a few
 * seconds, a Save pressed before then waits for it (a session that device already ended is never recorded
 * twice), and a name sync takes at the moment the plugin creates it is drawn again.
 */
import { confirmedText, draftText, hotText } from "../support/builders";
import { QUIET_MS } from "../../src/plugin/flows/sync-quiet";
import { syncDelivers } from "./support/sync-delivery";
import {
  harness,
  installPluginTestEnvironment,
  loadPlugin,
  noticeLog,
  pickTopic,
  recoverAction,
  recoveryRows,
  settle,
  syncSettles,
  tickFor,
} from "./support/plugin-harness";
import { HOT, S, at, confirmedIds, draftIds, openModals } from "./support/session-files";

installPluginTestEnvironment();

const D = "DRAFT-S-0000aaaa";
const PHONE_NOTE = "S-20260814T110000-beef";

/** The vault as this device left it: the phone's session, silent here for an hour (its end not synced yet). */
const beforeSync = (): Record<string, string> => ({
  [HOT]: hotText({ active_topic: "T-rust-ownership", started_at: at(-60), open_draft: D, device: "phone" }),
  [S(D)]: draftText({ session_id: D, started_at: at(-60), last_checkpoint_at: at(-50), device: "phone" }, "Notes\n"),
});

/** What the phone did meanwhile: it ended the session (its note, the draft gone, hot.md closed). */
const thePhonesEnd = {
  write: {
    [S(PHONE_NOTE)]: confirmedText({
      session_id: PHONE_NOTE,
      started_at: at(-60),
      ended_at: at(-45),
      duration_minutes: 15,
      absorbed_drafts: [D],
    }),
    [HOT]: hotText({ active_topic: "T-rust-ownership", last_session: PHONE_NOTE }),
  },
  remove: [S(D)],
};

describe("another device's draft at start-up", () => {
  it("is not offered until the folder is quiet, and not at all once sync brings its end", async () => {
    const h = harness({ files: beforeSync() });
    await loadPlugin(h, { device: "laptop", syncSettled: false });
    expect(openModals()).toEqual([]);
    expect(noticeLog().join("\n")).toMatch(/from another device may not be synced yet/);
    await tickFor(2000);
    await syncDelivers(h, thePhonesEnd);
    await tickFor(QUIET_MS - 1000);
    expect(openModals()).toEqual([]); // quiet for 4 s only
    await syncSettles();
    expect(openModals()).toEqual([]);
    expect(confirmedIds(h)).toEqual([PHONE_NOTE]);
  });

  it("is offered once the folder has been quiet, as it is then", async () => {
    const h = harness({ files: beforeSync() });
    await loadPlugin(h, { device: "laptop", syncSettled: false });
    await tickFor(QUIET_MS - 1000);
    expect(openModals()).toEqual([]);
    await tickFor(1000);
    expect(recoveryRows().map((r) => r.draftId)).toEqual([D]);
    expect(recoveryRows()[0].text).not.toContain("may not be synced yet");
  });

  it("waits for the folder to settle before a Save pressed early, so an end synced meanwhile is kept", async () => {
    const h = harness({ files: beforeSync() });
    const p = await loadPlugin(h, { device: "laptop", syncSettled: false });
    await p.run("recover-drafts"); // the learner does not wait for the start-up dialog
    expect(recoveryRows().map((r) => r.draftId)).toEqual([D]);
    expect(recoveryRows()[0].text).toMatch(/Save records 10 min · may not be synced yet$/);
    await recoverAction(D, "save");
    expect(confirmedIds(h)).toEqual([]);
    expect(noticeLog().join("\n")).toMatch(/Waiting for sync to settle before you save T-rust-ownership/);
    await syncDelivers(h, thePhonesEnd);
    await syncSettles();
    await settle();
    expect(confirmedIds(h)).toEqual([PHONE_NOTE]);
    expect(draftIds(h)).toEqual([]);
  });

  it("is offered at once when it is this device's own interrupted draft", async () => {
    const h = harness({
      files: {
        [HOT]: hotText({ active_topic: "T-rust-ownership", started_at: at(-60), open_draft: D, device: "laptop" }),
        [S(D)]: draftText({ session_id: D, started_at: at(-60), last_checkpoint_at: at(-50), device: "laptop" }),
      },
    });
    await loadPlugin(h, { device: "laptop", syncSettled: false });
    expect(recoveryRows().map((r) => r.draftId)).toEqual([D]);
  });
});

describe("a name sync takes at the same moment", () => {
  it("draws another session ID when sync writes the same path while a session is saved", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop", data: { askForSummary: false } });
    await p.ribbon();
    await pickTopic("T-rust-ownership");
    const vault = h.app.vault;
    const create = vault.create.bind(vault);
    let taken = "";
    vault.create = (path, data, opts) => {
      if (taken === "" && path.includes("/sessions/S-")) {
        taken = path;
        h.arrivesOnDisk(path, "another device's session\n");
      }
      return create(path, data, opts);
    };
    await p.run("end-session");
    expect(taken).not.toBe("");
    expect(noticeLog().join("\n")).not.toMatch(/Could not|unexpected/);
    expect(h.adapter.readSync__(taken)).toBe("another device's session\n");
    const saved = confirmedIds(h).map((id) => S(id));
    expect(saved.filter((path) => path !== taken)).toHaveLength(1);
    expect(draftIds(h)).toEqual([]);
  });
});
