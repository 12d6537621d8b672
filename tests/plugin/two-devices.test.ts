/**
 * Two devices on one synced vault (issue 4 §4): two instances of the real plugin, "desk" and "phone", on ONE
 * in-memory vault, so each sees the other's writes at once, as sync would deliver them (with the metadata
 * cache in step, and lagging behind writes as Obsidian's does). Each instance reads its device name from the
 * app's local storage when it loads, so they are loaded one after the other, and every test that depends on
 * it checks the names in the files they write.
 *
 * Already covered with one instance and fixture files (tests/plugin/devices.test.ts, gaps.test.ts): the phone's
 * session reported on vault open, in the status bar and on start; its interrupted session offered for
 * recovery; sync delivering hot.md before the draft and the reverse; the recovery modal re-checking a draft.
 * Here the other device is a live plugin: its timers, checkpoints, end and recovery run against the same files.
 */
import type { ObsidianHarness } from "./support/obsidian-harness";
import type { LoadedPlugin } from "./support/plugin-harness";
import { TopicPickerModal } from "../../src/plugin/ui/topic-picker";
import { draftText, hotText } from "../support/builders";
import {
  MINUTE,
  T0,
  clearNotices,
  harness,
  installPluginTestEnvironment,
  lastNotice,
  loadPlugin,
  modals,
  noticeLog,
  recoverAction,
  recoveryRows,
  settle,
  submitEnd,
} from "./support/plugin-harness";
import {
  HOT,
  INDEX,
  S,
  at,
  bodyAt,
  confirmedIds,
  confirmedPaths,
  draftIds,
  fieldsAt,
  isTopic,
  openModals,
  startOn,
  statusText,
  textAt,
} from "./support/session-files";

installPluginTestEnvironment();

const TOPIC = "T-rust-ownership";

interface TwoDevices {
  h: ObsidianHarness;
  desk: LoadedPlugin;
  phone: LoadedPlugin;
}

/** Loads "desk", then "phone", on one vault; `data` is each one's data.json. */
async function twoDevices(
  options: { cacheLag?: boolean; files?: Record<string, string>; desk?: unknown; phone?: unknown } = {},
): Promise<TwoDevices> {
  const h = harness({ cacheLag: options.cacheLag, files: options.files });
  const desk = await loadPlugin(h, { device: "desk", data: options.desk });
  const phone = await loadPlugin(h, { device: "phone", data: options.phone });
  return { h, desk, phone };
}

/**
 * Fires both instances' one-second ticks for `ms`, a minute at a time, letting the work of each minute finish
 * (an automatic checkpoint falls due on one tick; the ones after it wait for it, so each minute's checkpoint
 * is written at the exact second it was due).
 */
async function tickFor(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += MINUTE) {
    jest.advanceTimersByTime(Math.min(MINUTE, ms - t));
    await settle();
  }
}

/** The open topic pickers, oldest first (each instance opens its own). */
function pickers(): TopicPickerModal[] {
  return (modals() as readonly unknown[]).filter((m): m is TopicPickerModal => m instanceof TopicPickerModal);
}

function choose(picker: TopicPickerModal, topicId: string): void {
  const choice = picker.getSuggestions(topicId).find(isTopic(topicId));
  if (!choice) throw new Error(`no suggestion for ${topicId}`);
  picker.selectSuggestion(choice, new MouseEvent("click"));
}

/**
 * Runs `write` just before the next `times` writes of `path` through vault.process
 * (another writer landing between read and write).
 */
function beforeProcessOf(
  h: ObsidianHarness,
  path: string,
  times: number,
  write: (current: string) => void,
): { fired: () => number } {
  const vault = h.app.vault;
  const original = vault.process.bind(vault);
  let fired = 0;
  vault.process = async (file, fn, opts) => {
    if (fired < times && file.path === path) {
      fired++;
      write(textAt(h, path));
    }
    return original(file, fn, opts);
  };
  return { fired: () => fired };
}

describe.each([
  ["the metadata cache in step with every write", false],
  ["a metadata cache lagging behind writes", true],
])("two devices on one vault, %s", (_name, cacheLag) => {
  it("each writes its own device name into its drafts and hot.md", async () => {
    const { h, desk, phone } = await twoDevices({
      cacheLag,
      desk: { askForSummary: false },
      phone: { askForSummary: false },
    });
    const deskDraft = await startOn(desk);
    expect(fieldsAt(h, S(deskDraft))).toMatchObject({ device: "desk", topic_id: TOPIC });
    expect(fieldsAt(h, HOT)).toMatchObject({ device: "desk", open_draft: deskDraft });
    expect(statusText(desk)).toBe(`${TOPIC} 0:00:00`);
    expect(statusText(phone)).toBe(`${TOPIC} 0:00:00 (on desk)`);

    jest.setSystemTime(T0 + 10 * MINUTE);
    await desk.run("end-session");
    expect(statusText(phone)).toBe("Start session");
    const phoneDraft = await startOn(phone, "T-graphs");
    expect(fieldsAt(h, S(phoneDraft))).toMatchObject({ device: "phone", topic_id: "T-graphs" });
    expect(fieldsAt(h, HOT)).toMatchObject({ device: "phone", open_draft: phoneDraft });
    expect(statusText(desk)).toBe("T-graphs 0:00:00 (on phone)");
  });

  it("refuses the phone's start while the desk's session is open: told where it runs, nothing replaced", async () => {
    const { h, desk, phone } = await twoDevices({ cacheLag });
    const deskDraft = await startOn(desk);
    const before = h.files();
    clearNotices();
    await phone.run("start-session");
    expect(noticeLog()).toEqual([`A session on ${TOPIC} is open on desk (since 12:00). End it there first.`]);
    await phone.ribbon();
    expect(lastNotice()).toBe(`A session on ${TOPIC} is open on desk (since 12:00). End it there first.`);
    expect(openModals()).toEqual([]);
    expect(h.files()).toEqual(before);
    expect(fieldsAt(h, HOT)).toMatchObject({ open_draft: deskDraft, device: "desk" });
  });

  it(
    "refuses the phone's start from a picker opened before the desk started: the desk's " + "session stays open",
    async () => {
      const { h, desk, phone } = await twoDevices({ cacheLag });
      await phone.ribbon(); // the phone's picker is on screen…
      await desk.ribbon(); // …when the desk starts
      const [phonePicker, deskPicker] = pickers();
      choose(deskPicker, TOPIC);
      await settle();
      const deskDraft = fieldsAt(h, HOT).open_draft;
      clearNotices();
      choose(phonePicker, "T-graphs");
      await settle();
      expect(noticeLog()).toEqual([`A session on ${TOPIC} is open on desk (since 12:00). End it there first.`]);
      expect(draftIds(h)).toEqual([deskDraft]);
      expect(fieldsAt(h, HOT)).toMatchObject({ open_draft: deskDraft, device: "desk", active_topic: TOPIC });
      expect(statusText(phone)).toBe(`${TOPIC} 0:00:00 (on desk)`);
    },
  );

  it("opens exactly one session when both pick a topic at the same moment", async () => {
    // hot.md exists (any vault that has had a session): both starts write it through Vault.process.
    const { h, desk, phone } = await twoDevices({ cacheLag, files: { [HOT]: hotText() } });
    await desk.ribbon();
    await phone.ribbon();
    const [deskPicker, phonePicker] = pickers();
    clearNotices();
    choose(deskPicker, TOPIC);
    choose(phonePicker, "T-graphs"); // before either start has written anything
    await settle();
    await settle();
    expect(draftIds(h)).toHaveLength(1);
    const open = fieldsAt(h, HOT);
    const [draft] = draftIds(h);
    expect(open.open_draft).toBe(draft);
    expect(fieldsAt(h, S(draft))).toMatchObject({ device: open.device, topic_id: open.active_topic });
    const winner = open.device === "desk" ? desk : phone;
    const loser = open.device === "desk" ? phone : desk;
    expect(noticeLog()).toEqual(
      expect.arrayContaining([
        `Session on ${String(open.active_topic)} started.`,
        expect.stringMatching(/^A session on .* is open on (desk|phone) \(since 12:00\)\. End it there first\.$/),
      ]),
    );
    expect(noticeLog()).toHaveLength(2);
    expect(statusText(winner)).toBe(`${String(open.active_topic)} 0:00:00`);
    expect(statusText(loser)).toBe(`${String(open.active_topic)} 0:00:00 (on ${String(open.device)})`);
  });

  it(
    "reports the desk's session on the phone and never touches it: vault open, status, " +
      "recovery, checkpoints, rebuild",
    async () => {
      const h = harness({ cacheLag });
      const desk = await loadPlugin(h, { device: "desk" });
      const deskDraft = await startOn(desk);
      jest.setSystemTime(T0 + 3 * MINUTE);
      h.resetLogs();
      clearNotices();
      const phone = await loadPlugin(h, { device: "phone" }); // Obsidian opens on the phone meanwhile
      expect(h.events).toEqual([]);
      expect(noticeLog()).toEqual([`A session on ${TOPIC} is open on desk (since 12:00).`]);
      expect(openModals()).toEqual([]);
      expect(statusText(phone)).toBe(`${TOPIC} 0:03:00 (on desk)`);
      expect(phone.available("end-session")).toBe(false);
      expect(phone.available("save-checkpoint")).toBe(false);

      clearNotices();
      await phone.run("show-status");
      expect(lastNotice()).toBe(`${TOPIC}: 0:03:00 so far\nStarted 12:00 on desk\nLast checkpoint 12:00`);
      await phone.run("recover-drafts");
      expect(lastNotice()).toBe("No interrupted sessions to recover.");
      expect(openModals()).toEqual([]);
      await phone.run("rebuild-views");
      expect(lastNotice()).toBe("Rebuilt working memory and index from 0 sessions.");
      expect(fieldsAt(h, HOT)).toMatchObject({ open_draft: deskDraft, device: "desk", started_at: at(0) });
      // Only the views were written (rebuild), never the desk's draft.
      expect(h.events.filter((e) => e.includes("DRAFT-S-"))).toEqual([]);
      expect(h.trashed).toEqual([]);

      // An hour on: the desk keeps checkpointing every 5 minutes, so the phone never takes it for interrupted.
      await tickFor(60 * MINUTE);
      expect(fieldsAt(h, S(deskDraft))).toMatchObject({ device: "desk", last_checkpoint_at: at(60) });
      expect(statusText(phone)).toBe(`${TOPIC} 1:03:00 (on desk)`);
      expect(openModals()).toEqual([]);
      expect(h.events.filter((e) => e.includes("DRAFT-S-")).length).toBe(12);
      expect(h.trashed).toEqual([]);
    },
  );

  it("ends the phone's own session without absorbing the desk's running draft of the same topic", async () => {
    // Sync merged two offline starts: hot.md names the phone's session; the desk's draft (checkpointed at
    // 12:00, so alive on the desk for 15 minutes) is in the folder too.
    const { h, desk, phone } = await twoDevices({ cacheLag });
    const deskDraft = await startOn(desk);
    h.write(S(deskDraft), `${textAt(h, S(deskDraft))}Desk notes\n`);
    const PHONE_DRAFT = "DRAFT-S-0000aaaa";
    h.write(
      S(PHONE_DRAFT),
      draftText(
        { session_id: PHONE_DRAFT, started_at: at(0), last_checkpoint_at: at(0), device: "phone" },
        "Phone notes\n",
      ),
    );
    h.write(HOT, hotText({ active_topic: TOPIC, started_at: at(0), open_draft: PHONE_DRAFT, device: "phone" }));
    await settle();
    expect(statusText(phone)).toBe(`${TOPIC} 0:00:00`);
    expect(statusText(desk)).toBe(`${TOPIC} 0:00:00 (on phone)`);
    const deskText = textAt(h, S(deskDraft));

    jest.setSystemTime(T0 + 10 * MINUTE);
    clearNotices();
    await phone.ribbon();
    await submitEnd("Phone summary", "Phone next");
    const [saved] = confirmedPaths(h);
    expect(confirmedIds(h)).toHaveLength(1);
    expect(fieldsAt(h, saved)).toMatchObject({ absorbed_drafts: [PHONE_DRAFT], duration_minutes: 10 });
    expect(bodyAt(h, saved)).toContain("Phone notes");
    expect(bodyAt(h, saved)).not.toContain("Desk notes");
    expect(textAt(h, S(deskDraft))).toBe(deskText);
    expect(h.trashed.map((t) => t.path)).toEqual([S(PHONE_DRAFT)]);
    expect(noticeLog()).toContain(`Session on ${TOPIC} saved (10 min).`);
    expect(noticeLog().join("\n")).toContain(`left ${deskDraft} alone: it is open on desk`);
  });

  it(
    "records one confirmed note when the phone's Save lands between the desk's note and the " +
      "desk's trash of the draft",
    async () => {
      // Automatic checkpoints off on the desk: after its last manual checkpoint it is silent for the phone.
      const { h, desk, phone } = await twoDevices({ cacheLag, desk: { askForSummary: false, checkpointMinutes: 0 } });
      const deskDraft = await startOn(desk);
      jest.setSystemTime(T0 + 5 * MINUTE);
      await desk.run("save-checkpoint");
      jest.setSystemTime(T0 + 21 * MINUTE); // 16 minutes without a checkpoint: past the phone's grace period
      await phone.run("recover-drafts");
      expect(recoveryRows()).toEqual([
        {
          draftId: deskDraft,
          text: expect.stringContaining("On desk · started 12:00 · last seen 12:05 · Save records 5 min") as string,
        },
      ]);
      expect(desk.available("end-session")).toBe(true); // the desk still runs it
      clearNotices();

      // The desk ends; right after its confirmed note is written, the phone's Save runs to completion.
      const vault = h.app.vault;
      const create = vault.create.bind(vault);
      let landed = false;
      vault.create = async (path, data, opts) => {
        const file = await create(path, data, opts);
        if (!landed && path.startsWith("palee/sessions/S-")) {
          landed = true;
          await recoverAction(deskDraft, "save");
        }
        return file;
      };
      await desk.run("end-session");
      await settle();

      expect(landed).toBe(true);
      expect(confirmedIds(h)).toHaveLength(1);
      // The desk was silent since 12:05 (no tick, no checkpoint): without a dialog it ends at its last activity.
      expect(fieldsAt(h, confirmedPaths(h)[0])).toMatchObject({
        absorbed_drafts: [deskDraft],
        outcome: "completed",
        duration_minutes: 5,
      });
      expect(draftIds(h)).toEqual([]);
      expect(h.trashed.map((t) => t.path)).toEqual([S(deskDraft)]);
      expect(fieldsAt(h, HOT)).toMatchObject({ open_draft: null, started_at: null, device: null });
      // Observed before the fix: "Could not end the session: unexpected error (palee/sessions/DRAFT-S-….md does
      // not exist)" on the desk, whose session had just been saved (the phone's reconcile trashed the draft).
      expect(noticeLog()).toContain(`Session on ${TOPIC} saved (5 min).`);
      expect(noticeLog().join("\n")).not.toMatch(/Could not/);
      // The phone's Save found the session saved and finished the job: the draft trashed, the pointer closed.
      expect(noticeLog().join("\n")).toMatch(/was already saved in S-.*; moved it to the trash/);
      expect(openModals()).toEqual([]);
      expect(statusText(desk)).toBe("Start session");
      expect(statusText(phone)).toBe("Start session");
      expect(textAt(h, INDEX)).toContain("Total sessions: 1");
    },
  );

  it(
    "names both notes when the desk's end and the phone's Save of one session run at the same " +
      "moment (no local check can stop it)",
    async () => {
      // Both pass their checks before either writes; note IDs are random, so create-only cannot catch it, and
      // across real devices sync delay makes the race unavoidable. A confirmed note is never deleted: both stay,
      // and every rebuild (and start-up) names them so the learner keeps one.
      const { h, desk, phone } = await twoDevices({ cacheLag, desk: { askForSummary: false, checkpointMinutes: 0 } });
      const deskDraft = await startOn(desk);
      jest.setSystemTime(T0 + 5 * MINUTE);
      await desk.run("save-checkpoint");
      jest.setSystemTime(T0 + 21 * MINUTE);
      await phone.run("recover-drafts");
      await Promise.all([desk.run("end-session"), recoverAction(deskDraft, "save")]);
      await settle();
      const notes = confirmedPaths(h);
      expect(notes).toHaveLength(2);
      for (const p of notes) expect(fieldsAt(h, p).absorbed_drafts).toEqual([deskDraft]);
      clearNotices();
      await phone.run("rebuild-views");
      const named = noticeLog().join("\n");
      expect(named).toContain(
        `${[...notes].sort().join(" and ")} both record the session ${deskDraft} (saved twice, ` +
          `e.g. on two devices at once)`,
      );
      expect(confirmedPaths(h)).toEqual(notes);
      expect(h.deleted).toEqual([]);
    },
  );

  it(
    "records one confirmed note when the phone saves from a recovery row drawn before the desk " +
      "ended (a stale view)",
    async () => {
      const { h, desk, phone } = await twoDevices({ cacheLag, desk: { askForSummary: false, checkpointMinutes: 0 } });
      const deskDraft = await startOn(desk);
      jest.setSystemTime(T0 + 20 * MINUTE);
      await phone.run("recover-drafts");
      expect(recoveryRows().map((r) => r.draftId)).toEqual([deskDraft]);
      await desk.run("end-session"); // the learner, back at the desk, ends it there
      const [sessionId] = confirmedIds(h);
      // Silent since its start (no tick, no checkpoint): without a dialog it ends at its last activity.
      expect(lastNotice()).toBe(`Session on ${TOPIC} saved (0 min).`);

      await recoverAction(deskDraft, "save"); // then presses Save on the phone's stale row
      expect(confirmedIds(h)).toEqual([sessionId]);
      expect(openModals()).toEqual([]); // its only row was decided: "Was already saved as …"
      expect(noticeLog().join("\n")).not.toMatch(/Could not/);
      expect(draftIds(h)).toEqual([]);
      expect(statusText(phone)).toBe("Start session");
    },
  );

  it(
    "records one confirmed note when the phone resumed the desk's silent session while the " +
      "desk's end modal was open",
    async () => {
      const { h, desk, phone } = await twoDevices({ cacheLag, desk: { checkpointMinutes: 0 } });
      const deskDraft = await startOn(desk);
      jest.setSystemTime(T0 + 2 * MINUTE);
      await desk.run("end-session"); // the desk's end modal is open; the learner walks away
      const deskEnd = modals()[0];
      jest.setSystemTime(T0 + 20 * MINUTE);
      await phone.run("recover-drafts");
      await recoverAction(deskDraft, "resume"); // and continues the session on the phone
      expect(fieldsAt(h, HOT)).toMatchObject({ open_draft: deskDraft, device: "phone" });
      // The 20 silent minutes are recorded as a break on Resume (contract §4), and the timer shows time studied.
      expect(statusText(phone)).toBe(`${TOPIC} 0:00:00`);
      expect(statusText(desk)).toBe(`${TOPIC} 0:00:00 (on phone)`);

      jest.setSystemTime(T0 + 30 * MINUTE);
      clearNotices();
      // Both end it at the same moment: the phone from its ribbon, the desk from its stale modal.
      const phoneEnd = phone.ribbon();
      expect(modals()).toContain(deskEnd);
      const deskSubmit = submitEndOf(deskEnd, "Desk summary");
      await Promise.all([phoneEnd, deskSubmit]);
      const phoneModal = modals().find((m) => m !== deskEnd);
      if (phoneModal) await submitEndOf(phoneModal, "Phone summary");
      await settle();

      expect(confirmedIds(h)).toHaveLength(1);
      const saved = fieldsAt(h, confirmedPaths(h)[0]);
      expect(saved).toMatchObject({
        absorbed_drafts: [deskDraft],
        started_at: at(0),
        duration_minutes: 10,
        break_minutes: 20,
      });
      expect(bodyAt(h, confirmedPaths(h)[0])).toContain("Phone summary");
      expect(noticeLog()).toContain(`Session on ${TOPIC} saved (10 min).`);
      expect(noticeLog().join("\n")).toMatch(
        /Could not end the session: the session on T-rust-ownership is open on phone; end it there/,
      );
      expect(draftIds(h)).toEqual([]);
    },
  );

  it(
    "offers the desk's session on the phone only after the desk went silent past the grace " +
      "period, and acts only on an explicit choice",
    async () => {
      const { h, desk, phone } = await twoDevices({ cacheLag });
      const deskDraft = await startOn(desk);
      await tickFor(12 * MINUTE); // the desk checkpoints at 12:05 and 12:10
      expect(fieldsAt(h, S(deskDraft)).last_checkpoint_at).toBe(at(10));
      desk.unload(); // Obsidian closes on the desk (no end): it goes silent
      await tickFor(12 * MINUTE); // 12:24: 14 minutes since its last checkpoint
      await phone.run("recover-drafts");
      expect(lastNotice()).toBe("No interrupted sessions to recover.");
      expect(statusText(phone)).toBe(`${TOPIC} 0:24:00 (on desk)`);
      jest.advanceTimersByTime(2 * MINUTE); // 12:26: 16 minutes
      expect(statusText(phone)).toBe(`${TOPIC} (interrupted)`);

      const before = h.files();
      h.resetLogs();
      await phone.run("recover-drafts");
      expect(recoveryRows()).toEqual([
        {
          draftId: deskDraft,
          text: expect.stringContaining("On desk · started 12:00 · last seen 12:10 · Save records 10 min") as string,
        },
      ]);
      // Offering it, closing the modal, and the phone's automatic ticks write nothing.
      modals()[0].close();
      await tickFor(10 * MINUTE);
      expect(h.files()).toEqual(before);
      expect(h.trashed).toEqual([]);
      // Start on the phone stops at the recovery modal (the learner decides), then Save records it up to 12:10.
      await phone.ribbon();
      expect(recoveryRows().map((r) => r.draftId)).toEqual([deskDraft]);
      await recoverAction(deskDraft, "save");
      expect(fieldsAt(h, confirmedPaths(h)[0])).toMatchObject({
        absorbed_drafts: [deskDraft],
        outcome: "interrupted",
        duration_minutes: 10,
      });
    },
  );
});

/** Fills and confirms a specific end modal (two instances may each have one open). */
async function submitEndOf(modal: { contentEl: HTMLElement }, summary: string): Promise<void> {
  const area = modal.contentEl.querySelector("textarea");
  if (!(area instanceof HTMLTextAreaElement)) throw new Error("not an end modal");
  area.value = summary;
  area.dispatchEvent(new Event("input", { bubbles: true }));
  const button = Array.from(modal.contentEl.querySelectorAll("button")).find((b) => b.textContent === "End session");
  if (!button) throw new Error("no End session button");
  button.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  await settle();
}

// ---- a derived view changed underneath a write ----------------------------------------------------------

describe("hot.md changed by the other device between the desk's read and its write", () => {
  const PHONE_DRAFT = "DRAFT-S-0000aaaa";
  /** The phone's start, delivered by sync: its draft, then hot.md naming it. */
  function phoneStarts(h: ObsidianHarness, topic: string): void {
    h.write(
      S(PHONE_DRAFT),
      draftText({
        session_id: PHONE_DRAFT,
        topic_id: topic,
        started_at: at(20),
        last_checkpoint_at: at(20),
        device: "phone",
      }),
    );
    h.write(HOT, hotText({ active_topic: topic, started_at: at(20), open_draft: PHONE_DRAFT, device: "phone" }));
  }

  it.each([
    ["another topic", "T-graphs"],
    ["the same topic", TOPIC],
  ])("keeps the phone's new open session when the desk's end clears its own (%s)", async (_name, topic) => {
    const { h, desk, phone } = await twoDevices({ desk: { askForSummary: false } });
    const deskDraft = await startOn(desk);
    // Studying on the desk: its ticks fire (a jump of the clock alone is a sleep, recorded as time away).
    jest.advanceTimersByTime(20 * MINUTE);
    await settle();
    const hook = beforeProcessOf(h, HOT, 1, () => phoneStarts(h, topic));
    clearNotices();
    await desk.run("end-session");
    await settle();
    expect(hook.fired()).toBe(1);
    // The end is refused once as a conflict, retried from a fresh read, and keeps the phone's pointer.
    expect(confirmedIds(h)).toHaveLength(1);
    expect(fieldsAt(h, confirmedPaths(h)[0]).absorbed_drafts).toEqual([deskDraft]);
    expect(fieldsAt(h, HOT)).toMatchObject({
      active_topic: topic,
      open_draft: PHONE_DRAFT,
      device: "phone",
      started_at: at(20),
    });
    expect(draftIds(h)).toEqual([PHONE_DRAFT]);
    expect(noticeLog()).toEqual([`Session on ${TOPIC} saved (20 min).`]);
    expect(statusText(desk)).toBe(`${topic} 0:00:00 (on phone)`);
    expect(statusText(phone)).toBe(`${topic} 0:00:00`);
  });

  it(
    "does not open the desk's session over the phone's when the phone's start lands during the " + "desk's start",
    async () => {
      const { h, desk } = await twoDevices();
      const hook = beforeProcessOf(h, HOT, 1, () => phoneStarts(h, "T-graphs"));
      h.write(HOT, hotText()); // an existing hot.md, so the desk's start writes it through process
      await settle();
      clearNotices();
      await desk.ribbon();
      const [picker] = pickers();
      choose(picker, TOPIC);
      await settle();
      expect(hook.fired()).toBe(1);
      expect(noticeLog()).toEqual(["A session on T-graphs is open on phone (since 12:20). End it there first."]);
      expect(draftIds(h)).toEqual([PHONE_DRAFT]);
      expect(fieldsAt(h, HOT)).toMatchObject({ open_draft: PHONE_DRAFT, device: "phone" });
    },
  );

  it(
    "gives up after a second conflict with a notice; the reconcile that closes the saved " +
      "session then rewrites hot.md from a fresh read",
    async () => {
      const { h, desk } = await twoDevices({ desk: { askForSummary: false } });
      const deskDraft = await startOn(desk);
      jest.setSystemTime(T0 + 20 * MINUTE);
      let edits = 0;
      // The learner (or another device) keeps editing hot.md: each of the desk's two tries meets a new version.
      const hook = beforeProcessOf(h, HOT, 2, (current) => h.write(HOT, `${current}Edited elsewhere ${++edits}\n`));
      clearNotices();
      await desk.run("end-session");
      await settle();
      expect(hook.fired()).toBe(2);
      const [sessionId] = confirmedIds(h);
      expect(noticeLog()).toEqual([
        `Session saved as ${sessionId}, but palee/hot.md changed on another device or in an editor ` +
          `while it was being updated. Run "Rebuild working memory and index" to refresh it.`,
      ]);
      // Neither try overwrote a version it had not read. Afterwards the plugin reconciles (the saved session's
      // pointer is closed) and, since that finishes an interrupted end, rewrites both views from the notes as
      // they are now: the derived body follows the saved session, and no write went over an unread version.
      expect(textAt(h, HOT)).not.toContain("Edited elsewhere");
      expect(fieldsAt(h, HOT)).toMatchObject({ open_draft: null, last_session: sessionId });
      expect(fieldsAt(h, confirmedPaths(h)[0]).absorbed_drafts).toEqual([deskDraft]);
      expect(draftIds(h)).toEqual([]);
      expect(statusText(desk)).toBe("Start session");

      await desk.run("rebuild-views");
      expect(fieldsAt(h, HOT)).toMatchObject({ open_draft: null, last_session: sessionId });
    },
  );

  it("lists both sessions in index.md when the phone's end rewrote it during the desk's end", async () => {
    const { h, desk } = await twoDevices({ desk: { askForSummary: false } });
    await startOn(desk);
    jest.setSystemTime(T0 + 20 * MINUTE);
    const PHONE_SESSION = "S-20260814T110000-beef";
    // The phone ended an earlier session offline; sync delivers its note and its index just now.
    const hook = beforeProcessOf(h, INDEX, 1, (current) => {
      h.write(
        S(PHONE_SESSION),
        [
          "---",
          "palee_schema: 1",
          `session_id: ${PHONE_SESSION}`,
          "topic_id: T-graphs",
          `started_at: "${at(-60)}"`,
          `ended_at: "${at(-30)}"`,
          "duration_minutes: 30",
          "status: completed",
          "outcome: completed",
          "absorbed_drafts: []",
          "---",
          `# Session: ${PHONE_SESSION}`,
          "",
        ].join("\n"),
      );
      h.write(
        INDEX,
        current.replace("Total sessions: 0", "Total sessions: 1") +
          `- [[${PHONE_SESSION}]] - Topic: T-graphs (2026-08-14, 30 min)\n`,
      );
    });
    h.write(
      INDEX,
      "---\npalee_schema: 1\ntype: session_index\nupdated_at: 2026-08-13\n---\n# PALEE session " +
        "index\n\nTotal sessions: 0\n",
    );
    await settle();
    await desk.run("end-session");
    await settle();
    expect(hook.fired()).toBe(1);
    expect(confirmedIds(h)).toHaveLength(2);
    const index = textAt(h, INDEX);
    expect(index).toContain("Total sessions: 2");
    for (const id of confirmedIds(h)) expect(index).toContain(`[[${id}]]`);
  });
});

describe("honest time on two devices (issue 11)", () => {
  it("shows a pause made on the desk on the phone, frozen, and offers neither pause nor continue there", async () => {
    const { h, desk, phone } = await twoDevices();
    const deskDraft = await startOn(desk);
    await tickFor(20 * MINUTE);
    await desk.run("pause-session");
    expect(fieldsAt(h, S(deskDraft)).paused_at).toBe(at(20));
    await tickFor(40 * MINUTE);
    // Long after the grace period: a paused session writes nothing, and it is paused, not interrupted.
    expect(statusText(phone)).toBe(`${TOPIC} 0:20:00 (paused on desk)`);
    expect([phone.available("pause-session"), phone.available("continue-session")]).toEqual([false, false]);
    expect(noticeLog().filter((n) => n.startsWith("Away"))).toEqual([]);

    await desk.run("continue-session");
    expect(fieldsAt(h, S(deskDraft))).toMatchObject({ paused_at: null, break_minutes: 40 });
    expect(statusText(phone)).toBe(`${TOPIC} 0:20:00 (on desk)`);
    await tickFor(5 * MINUTE);
    expect(statusText(phone)).toBe(`${TOPIC} 0:25:00 (on desk)`);
  });
});
