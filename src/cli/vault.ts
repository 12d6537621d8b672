import * as fs from "../node/async-fs";
import * as path from "node:path";
import { UsageError } from "../core/errors";
import type { Layout } from "../core/records/layout";
import { DEFAULT_SESSION_FOLDER, layoutFor, normalizeSessionFolder } from "../core/records/layout";

export const PLUGIN_ID = "palee-sessions";

/** Obsidian's configuration folder: the CLI runs outside Obsidian and cannot ask for app.vault.configDir. */
const CONFIG_DIR = ".obsidian";

export interface VaultChoice {
  root: string;
  layout: Layout;
  /** The plugin's grace period (data.json `graceMinutes`), in ms; undefined: the default (contract §4 Devices). */
  graceMs?: number;
  /** What was wrong with the plugin's saved settings (a bad graceMinutes), to print as warnings. */
  warnings: string[];
}

/** The range the plugin's settings accept for graceMinutes (src/plugin/settings.ts LIMITS). */
const GRACE_MINUTES = { min: 1, max: 24 * 60 };

/** What the CLI takes from the plugin's data.json: the session folder and the grace period. */
interface SavedSettings {
  folder: string | null;
  graceMs?: number;
  warnings: string[];
}

/** graceMinutes as the plugin validates it (a whole number of minutes in range, or such a string). */
function graceOf(value: unknown, file: string): { graceMs?: number; warnings: string[] } {
  if (value === undefined) return { warnings: [] };
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n === "number" && Number.isInteger(n) && n >= GRACE_MINUTES.min && n <= GRACE_MINUTES.max) {
    return { graceMs: n * 60_000, warnings: [] };
  }
  return {
    warnings: [
      `${file}: graceMinutes ${JSON.stringify(value)} is not a whole number of minutes from ` +
        `${GRACE_MINUTES.min} to ${GRACE_MINUTES.max}; using the default (15 minutes)`,
    ],
  };
}

/** What is at `p`, following links: a folder, something else (a file), or nothing. */
async function kindOf(p: string): Promise<"folder" | "file" | "missing"> {
  try {
    return (await fs.stat(p)).isDirectory() ? "folder" : "file";
  } catch {
    return "missing";
  }
}

/** Where the plugin saves its settings in the vault at `root`. */
export const settingsFile = (root: string): string => path.join(root, CONFIG_DIR, "plugins", PLUGIN_ID, "data.json");

/** The session folder a parsed data.json names, or null for the default. */
export function folderSetting(parsed: unknown): string | null {
  const data = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  return typeof data.sessionFolder === "string" && data.sessionFolder.trim() !== "" ? data.sessionFolder : null;
}

/** The session folder's path in the vault for `raw` (an option or a setting), as chooseVault checks it. */
export const sessionFolderFor = (raw: string): string =>
  normalizeSessionFolder(raw, { allowDotFolders: true, configDir: CONFIG_DIR });

/** The vault's root for the --vault value, $PALEE_VAULT and the current folder, in that order. */
export function vaultRootFor(vault: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string {
  return path.resolve(cwd, vault ?? (env.PALEE_VAULT?.trim() ? env.PALEE_VAULT : undefined) ?? cwd);
}

/** The plugin's saved settings (<vault>/.obsidian/plugins/palee-sessions/data.json), if any. */
async function savedSettings(root: string): Promise<SavedSettings> {
  const file = settingsFile(root);
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch {
    return { folder: null, warnings: [] };
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    const data = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
    const where = path.relative(root, file).split(path.sep).join("/");
    return { folder: folderSetting(parsed), ...graceOf(data.graceMinutes, where) };
  } catch {
    throw new UsageError(`${file} is not valid JSON; fix it or pass --folder`);
  }
}

/**
 * Refuses a session folder that leads outside the vault through a symlink anywhere along its path,
 * including a dangling one (it could later point anywhere). Parts that do not exist yet are fine.
 * `plainFiles`: whether a part that is a plain file is refused here too (else the store reports it on use).
 */
async function refuseEscapes(root: string, folder: string, raw: string, plainFiles = true): Promise<void> {
  const realRoot = await fs.realpath(root);
  let current = root;
  for (const part of folder.split("/")) {
    current = path.join(current, part);
    let stat;
    try {
      stat = await fs.lstat(current);
    } catch {
      return; // does not exist yet: start creates it, inside the vault
    }
    if (!stat.isSymbolicLink()) {
      if (!stat.isDirectory() && plainFiles) {
        throw new UsageError(`session folder "${raw}" is not a folder (${path.relative(root, current)} is a file)`);
      }
      continue;
    }
    let target: string;
    try {
      target = await fs.realpath(current);
    } catch {
      throw new UsageError(
        `session folder "${raw}" goes through a broken symlink (${path.relative(root, current)})`,
        "folder_outside_vault",
      );
    }
    if (target !== realRoot && !target.startsWith(realRoot + path.sep)) {
      throw new UsageError(
        `session folder "${raw}" leads outside the vault through a symlink (${path.relative(root, current)})`,
        "folder_outside_vault",
      );
    }
    if (!(await fs.stat(target)).isDirectory()) {
      throw new UsageError(`session folder "${raw}" is not a folder (${path.relative(root, current)} leads to a file)`);
    }
  }
}

/**
 * Vault: --vault, else $PALEE_VAULT, else the current directory; it must exist. Folder: --folder, else the
 * plugin's saved setting, else "palee"; dot-folders are allowed here (the original .palee layout), paths
 * that leave the vault are refused, also through a symlink.
 */
export async function chooseVault(
  options: { vault?: string; folder?: string },
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<VaultChoice> {
  if (options.vault !== undefined && options.vault.trim() === "") {
    throw new UsageError(
      "--vault is empty: give the vault folder (or leave --vault out to use $PALEE_VAULT or the current folder)",
    );
  }
  const root = vaultRootFor(options.vault, env, cwd);
  const kind = await kindOf(root);
  if (kind === "file") {
    throw new UsageError(
      `the vault must be a folder, but ${root} is a file: give the vault's folder`,
      "folder_missing",
    );
  }
  if (kind === "missing") throw new UsageError(`vault folder does not exist: ${root}`, "folder_missing");
  const saved = await savedSettings(root);
  const raw = options.folder ?? saved.folder ?? DEFAULT_SESSION_FOLDER;
  const folder = sessionFolderFor(raw);
  await refuseEscapes(root, folder, raw);
  const layout = layoutFor(folder);
  // Its sessions/ folder too: drafts and notes written through a symlink there would land outside the vault,
  // where the deletion boundary then refuses every trash (each later end or start would fail with exit 5).
  await refuseEscapes(root, layout.sessions, raw, false);
  return { root, layout, graceMs: saved.graceMs, warnings: saved.warnings };
}
