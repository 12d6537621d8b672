import { BoundaryError, UsageError } from "../errors";
import { DRAFT_FILE_PATTERN } from "./ids";

/** Where a vault's session files live, all relative to the vault root. */
export interface Layout {
  folder: string;
  sessions: string;
  hot: string;
  index: string;
}

export const DEFAULT_SESSION_FOLDER = "palee";

/**
 * Normalizes a session folder setting ("palee", "Study/palee/"). Refuses absolute paths and anything that
 * leaves the vault, control characters (a line break), and `.trash` or the configuration folder as any part; other
 * dot-folders are refused unless allowed (the CLI allows them: `--folder .palee`).
 */
export function normalizeSessionFolder(
  raw: string,
  options: {
    allowDotFolders: boolean;
    /** Obsidian's configuration folder (`Vault#configDir`; the CLI passes the default name). */
    configDir?: string;
  },
): string {
  const trimmed = raw.trim().replace(/\\/g, "/");
  if (trimmed === "") throw new UsageError("the session folder must not be empty");
  if (/\p{Cc}/u.test(trimmed)) {
    throw new UsageError(
      `session folder ${JSON.stringify(raw)} holds a line break or another control character: give one plain path`,
    );
  }
  if (trimmed.startsWith("/") || /^[A-Za-z]:/.test(trimmed)) {
    throw new UsageError(
      `session folder "${raw}" must be a path inside the vault, not an absolute path`,
      "folder_outside_vault",
    );
  }
  const parts = trimmed.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.length === 0) throw new UsageError("the session folder must not be the vault root itself");
  if (parts.some((p) => p === "..")) {
    throw new UsageError(`session folder "${raw}" leaves the vault`, "folder_outside_vault");
  }
  // Never the vault's trash (drafts are moved there) or Obsidian's configuration, as any part of the path.
  const config = options.configDir?.toLowerCase();
  const reserved = parts.find((p) => p.toLowerCase() === ".trash" || p.toLowerCase() === config);
  if (reserved !== undefined) {
    throw new UsageError(
      `session folder "${raw}" is inside ${reserved}, which is not the learner's: ` +
        (reserved.toLowerCase() === ".trash" ? "the trash (drafts are moved there)" : "Obsidian's configuration"),
    );
  }
  if (!options.allowDotFolders && parts.some((p) => p.startsWith("."))) {
    throw new UsageError(
      `session folder "${raw}" is hidden: Obsidian does not index dot-folders, ` +
        "so links, search and sync would ignore your sessions",
    );
  }
  return parts.join("/");
}

export function layoutFor(folder: string): Layout {
  return {
    folder,
    sessions: `${folder}/sessions`,
    hot: `${folder}/hot.md`,
    index: `${folder}/index.md`,
  };
}

export function sessionPath(layout: Layout, fileName: string): string {
  return `${layout.sessions}/${fileName}`;
}

/**
 * The deletion boundary (docs/architecture.md): the only removable files are drafts directly inside
 * <folder>/sessions/. Throws BoundaryError for any other path.
 */
export function assertRemovable(layout: Layout, path: string): void {
  const prefix = `${layout.sessions}/`;
  const name = path.startsWith(prefix) ? path.slice(prefix.length) : "";
  const ok =
    name !== "" &&
    !name.includes("/") &&
    !name.includes("\\") &&
    !name.includes("..") &&
    !/\p{Cc}/u.test(name) &&
    DRAFT_FILE_PATTERN.test(name);
  if (!ok) throw new BoundaryError(path);
}

/** The tool's own temp files (NodeStore: `.<name>.<8 hex>.tmp` beside the file being written), by folder. */
const TEMP_IN_FOLDER = /^\.(?:hot|index)\.md\.[0-9a-f]{8}\.tmp$/;
const TEMP_IN_SESSIONS = /^\.(?:S-\d{8}T\d{6}-[0-9a-f]{4}|DRAFT-S-[0-9a-f]{8})\.md\.[0-9a-f]{8}\.tmp$/;

/** Whether `name`, directly inside `folder`, is one of the tool's own temp files (that exact pattern only). */
export function isOwnTempFile(layout: Layout, folder: string, name: string): boolean {
  if (folder === layout.folder) return TEMP_IN_FOLDER.test(name);
  if (folder === layout.sessions) return TEMP_IN_SESSIONS.test(name);
  return false;
}

/**
 * The one exception to the deletion boundary (contract §2): a temp file of the tool's own pattern, directly inside
 * the session folder or its sessions/ folder. Throws BoundaryError for any other path.
 */
export function assertTempRemovable(layout: Layout, path: string): void {
  const slash = path.lastIndexOf("/");
  if (slash < 0 || !isOwnTempFile(layout, path.slice(0, slash), path.slice(slash + 1))) throw new BoundaryError(path);
}
