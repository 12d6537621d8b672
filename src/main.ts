import { Platform, Plugin, TFile } from "obsidian";
import { registerCommands } from "./plugin/commands";
import { loadDeviceName, saveDeviceName } from "./plugin/adapters/device";
import type { FlowContext } from "./plugin/flows/context";
import { flowContext } from "./plugin/flows/context";
import { externalSettingsArrived } from "./plugin/flows/external-settings";
import { noteRenamed } from "./plugin/flows/open-session";
import { onVaultOpen } from "./plugin/flows/recovery";
import { statusBarClick, toggle } from "./plugin/flows/ribbon-and-status-bar";
import { ticker } from "./plugin/flows/time-away";
import { ObsidianStore } from "./plugin/adapters/obsidian-store";
import { registerInsight } from "./plugin/flows/insight";
import { registerDoors } from "./plugin/doors";
import { dueCounter } from "./plugin/flows/review-queue";
import { SessionController } from "./plugin/session-controller";
import type { PaleeSettings } from "./plugin/settings";
import { settingsFrom, toSaved } from "./plugin/settings";
import { PaleeSettingTab } from "./plugin/ui/settings-tab";
import { StatusBarTimer } from "./plugin/ui/status-bar";
import { browserClock, browserRandom } from "./plugin/adapters/system-ports";
import { topicName } from "./plugin/flows/topics";

/** How often the timer re-renders and time away and automatic checkpoints are checked (no writes unless due). */
const TICK_MS = 1000;

export default class PaleeSessionsPlugin extends Plugin {
  private settings!: PaleeSettings;
  private saved: unknown;
  private deviceName = "";
  private controller!: SessionController;
  private flows!: FlowContext;
  private onTick: () => Promise<void> = () => Promise.resolve();
  private timer: StatusBarTimer | null = null;
  private due: ReturnType<typeof dueCounter> | null = null;
  private unloaded = false;

  async onload(): Promise<void> {
    // No vault work here: notes are first touched in onLayoutReady.
    this.saved = await this.loadData();
    if (this.unloaded) return; // disabled while its settings were loading: register nothing
    this.settings = settingsFrom(this.saved);
    this.deviceName = loadDeviceName(this.app, Platform.isMobile, browserRandom);
    const store = new ObsidianStore(this.app);
    this.controller = new SessionController({
      store,
      clock: browserClock,
      random: browserRandom,
      settings: () => this.settings,
      device: () => this.deviceName,
    });
    const flows = (this.flows = flowContext(this.app, this.controller, store, () => this.settings));
    this.onTick = ticker(flows);

    registerCommands(this, flows);
    registerInsight(this, flows);
    registerDoors(this, flows);
    this.addRibbonIcon("timer", "Start or end a study session", () => void toggle(flows));
    if (!Platform.isMobile) {
      const item = this.addStatusBarItem();
      const showSeconds = (): boolean => this.settings.showSeconds;
      const due = (this.due = dueCounter(flows, () => this.timer?.render()));
      this.timer = new StatusBarTimer(
        item,
        () => this.controller.open,
        () => browserClock.now(),
        showSeconds,
        due.count,
        (topicId, topicNote) => topicName(flows, topicId, topicNote),
      );
      this.registerDomEvent(item, "click", (event) => statusBarClick(flows, event));
      this.register(this.controller.onChange(() => this.timer?.render(true)));
      this.register(due.follow());
      this.timer.render();
    }
    this.addSettingTab(
      new PaleeSettingTab(this.app, this, {
        settings: () => this.settings,
        update: (change) => this.updateSettings(change),
        deviceName: () => this.deviceName,
        setDeviceName: (name) => {
          this.deviceName = name;
          saveDeviceName(this.app, name);
          this.controller.reconfigure();
        },
        folderLocked: () =>
          this.controller.open
            ? "A session is open in the current folder: end it before moving the session folder."
            : null,
        deviceLocked: () =>
          this.controller.open?.mine
            ? "A session of this device is open under the current name: end it before renaming the device."
            : null,
      }),
    );

    this.app.workspace.onLayoutReady(() => this.onLayoutReady(store));
  }

  onunload(): void {
    this.unloaded = true;
    if (this.flows) this.flows.dispose();
  }

  private async onLayoutReady(store: ObsidianStore): Promise<void> {
    if (this.unloaded) return; // disabled before the workspace was ready: nothing to start
    // From here on the store follows file events, so scans only look again at files that changed.
    store.track((ref) => this.registerEvent(ref));
    this.flows.topicNotes.track((ref) => this.registerEvent(ref));
    this.flows.quiet.restart();
    // Registered before any await, so an unload during the start-up check still removes them.
    // Ticks read only memory: the timer from the recorded start, the checkpoint rule from the last checkpoint.
    this.registerInterval(window.setInterval(() => this.tick(), TICK_MS));
    this.registerDomEvent(document, "visibilitychange", () => {
      if (document.visibilityState === "visible") this.tick();
    });
    // Sync, the user or another window changed hot.md or a session file: show the session it now records.
    const watch = (path: string): void => {
      const { hot, sessions } = this.controller.layout;
      if (path !== hot && !path.startsWith(`${sessions}/`)) return;
      this.flows.quiet.changed();
      this.controller.requestRefresh();
    };
    this.registerEvent(this.app.vault.on("create", (file) => file instanceof TFile && watch(file.path)));
    this.registerEvent(this.app.vault.on("modify", (file) => file instanceof TFile && watch(file.path)));
    this.registerEvent(this.app.vault.on("delete", (file) => watch(file.path)));
    this.registerEvent(
      this.app.vault.on("rename", (file, oldPath) => {
        noteRenamed(this.flows, oldPath, file.path);
        watch(oldPath);
        watch(file.path);
      }),
    );
    // The first due count waits for the full scan start-up defers (the queue would do that scan at layout ready).
    await onVaultOpen(this.flows, () => this.due?.refresh());
    // Days turn: a topic falls due at midnight without any change to a note.
    this.registerInterval(window.setInterval(() => this.due?.refresh(), 60 * 60 * 1000));
  }

  private tick(): void {
    this.timer?.render();
    void this.onTick();
  }

  /** data.json changed on disk (another device, through sync): in force at once, never written back over. */
  async onExternalSettingsChange(): Promise<void> {
    if (this.unloaded || !this.flows) return;
    const saved: unknown = await this.loadData();
    const before = this.settings;
    const after = settingsFrom(saved);
    await externalSettingsArrived(this.flows, before, after, () => {
      this.saved = saved;
      this.settings = after;
    });
    this.timer?.render();
  }

  private async updateSettings(change: Partial<PaleeSettings>): Promise<void> {
    // A new object each time: the defaults and the previous settings are never mutated.
    this.settings = { ...this.settings, ...change };
    this.saved = toSaved(this.saved, this.settings);
    await this.saveData(this.saved);
    this.controller.reconfigure();
    this.timer?.render();
    if (change.sessionFolder !== undefined) await this.controller.refresh().catch(() => undefined);
  }
}
