/**
 * Export and the sessions base in the real app (contract §5, version 3): Obsidian hides `.csv` files unless
 * "Detect all file extensions" is on and Obsidian Sync skips them by default, so the export says where the
 * file is and how to open it, offers the desktop app's own "show in system explorer", and the same rows can
 * go to the clipboard instead; the sessions base needs Bases with grouping and summaries (Obsidian 1.10), so
 * an older app refuses it with the reason and opens nothing.
 */
import { Notice, Platform } from "obsidian-test-mocks/obsidian";
import { formatTimestamp, formatUtcCompact } from "../../src/core/time";
import { confirmedText } from "../support/builders";
import type { LoadedPlugin } from "./support/plugin-harness";
import { MINUTE, T0, harness, installPluginTestEnvironment, lastNotice, loadPlugin } from "./support/plugin-harness";
import { S, textAt } from "./support/session-files";

/** requireApiVersion answers as the app under test would (the mock always says yes). */
let apiVersion = "1.12.3";
jest.mock("obsidian", () => {
  const actual = jest.requireActual<Record<string, unknown>>("obsidian");
  const newer = (a: string, b: string): boolean => {
    const [x, y] = [a, b].map((v) => v.split(".").map(Number));
    for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
    return true;
  };
  return { ...actual, requireApiVersion: (version: string) => newer(apiVersion, version) };
});

installPluginTestEnvironment();

function sessions(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 3; i++) {
    const start = T0 - (i + 1) * 24 * 60 * MINUTE;
    const id = `S-${formatUtcCompact(start)}-000${i}`;
    files[S(id)] = confirmedText({
      session_id: id,
      topic_id: "T-rust",
      started_at: formatTimestamp(start, 0),
      ended_at: formatTimestamp(start + 30 * MINUTE, 0),
      duration_minutes: 30,
    });
  }
  return files;
}

async function loaded(): Promise<LoadedPlugin> {
  return loadPlugin(harness({ files: sessions() }), { device: "laptop" });
}

/** The newest notice's button with this label, if any. */
function noticeButton(label: string): HTMLButtonElement | undefined {
  const instances = jest.spyOn(Notice.prototype, "constructor__").mock.instances as unknown as Array<{
    messageEl: HTMLElement;
  }>;
  const last = instances[instances.length - 1];
  return Array.from(last?.messageEl.querySelectorAll("button") ?? []).find((b) => b.textContent === label);
}

beforeEach(() => {
  apiVersion = "1.12.3";
});

describe("export-sessions", () => {
  it("says where the CSV is and why Obsidian may not list it or sync it", async () => {
    const p = await loaded();
    await p.run("export-sessions");
    expect(lastNotice()).toMatch(/^Exported 3 session\(s\) to palee\/exports\/sessions-2026-08-14\.csv\. /);
    expect(lastNotice()).toContain("Settings → Files and links → Detect all file extensions");
    expect(lastNotice()).toContain("Obsidian Sync copies them only with All other file types on");
  });

  it("offers the desktop app's show in system explorer, which gets the file's vault path", async () => {
    const p = await loaded();
    const shown: string[] = [];
    (p.h.app as unknown as { showInFolder: (path: string) => Promise<void> }).showInFolder = async (path) => {
      shown.push(path);
    };
    await p.run("export-sessions");
    const show = noticeButton("Show in system explorer");
    expect(show).toBeDefined();
    show?.click();
    expect(shown).toEqual(["palee/exports/sessions-2026-08-14.csv"]);
  });

  it("offers no button on mobile, nor where the app has no such action", async () => {
    const p = await loaded();
    await p.run("export-sessions");
    expect(noticeButton("Show in system explorer")).toBeUndefined();
    (p.h.app as unknown as { showInFolder: () => void }).showInFolder = () => undefined;
    Platform.isDesktopApp = false;
    await p.run("export-sessions");
    expect(lastNotice()).toMatch(/sessions-2026-08-14-2\.csv/);
    expect(noticeButton("Show in system explorer")).toBeUndefined();
  });
});

describe("copy-sessions-csv", () => {
  it("puts the export's CSV on the clipboard and writes nothing", async () => {
    const writeText = jest.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const p = await loaded();
    const before = Object.keys(p.h.files());
    await p.run("export-sessions");
    const csv = textAt(p.h, "palee/exports/sessions-2026-08-14.csv");
    await p.run("copy-sessions-csv");
    expect(writeText).toHaveBeenCalledWith(csv);
    expect(lastNotice()).toBe("Copied 3 session(s) as CSV to the clipboard.");
    expect(Object.keys(p.h.files())).toEqual([...before, "palee/exports/sessions-2026-08-14.csv"].sort());
  });

  it("says so when the clipboard refuses", async () => {
    const writeText = jest.fn(async () => Promise.reject(new Error("Document is not focused")));
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    jest.spyOn(console, "error").mockImplementation(() => undefined);
    const p = await loaded();
    await p.run("copy-sessions-csv");
    expect(lastNotice()).toBe("Could not copy the sessions as CSV: Document is not focused");
  });
});

describe("create-sessions-base", () => {
  it("refuses on Obsidian before 1.10, says why, and neither writes nor opens a .base", async () => {
    apiVersion = "1.9.14";
    const p = await loaded();
    const active = p.h.app.workspace.getActiveFile();
    await p.run("create-sessions-base");
    expect(lastNotice()).toMatch(/^The sessions base needs Obsidian 1\.10\.0 or later \(Bases with grouping/);
    expect(p.h.files()["palee/sessions.base"]).toBeUndefined();
    expect(p.h.app.workspace.getActiveFile()).toBe(active);
  });

  it("does not open an existing .base either on an older app", async () => {
    apiVersion = "1.9.14";
    const p = await loaded();
    p.h.write("palee/sessions.base", "# mine\n");
    await p.run("create-sessions-base");
    expect(lastNotice()).toMatch(/needs Obsidian 1\.10\.0/);
    expect(p.h.app.workspace.getActiveFile()?.path).not.toBe("palee/sessions.base");
  });

  it("creates it on 1.10 and says it needs the Bases core plugin", async () => {
    apiVersion = "1.10.0";
    const p = await loaded();
    await p.run("create-sessions-base");
    expect(lastNotice()).toBe("Created palee/sessions.base (open it with the Bases core plugin enabled).");
    expect(textAt(p.h, "palee/sessions.base")).toMatch(/^# PALEE Sessions: .* Needs Obsidian 1\.10 or later/);
  });
});
