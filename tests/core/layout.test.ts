import { BoundaryError, PaleeError } from "../../src/core/errors";
import { assertRemovable, layoutFor, normalizeSessionFolder } from "../../src/core/records/layout";

describe("session folder setting", () => {
  it.each([
    ["palee", "palee"],
    [" Study/palee/ ", "Study/palee"],
    ["./palee", "palee"],
    ["Study\\palee", "Study/palee"],
  ])("normalizes %j to %j", (raw, expected) => {
    expect(normalizeSessionFolder(raw, { allowDotFolders: false })).toBe(expected);
  });

  it.each(["../x", "palee/../../x", "/etc", "C:/Users", "", "  ", "."])("refuses %j", (raw) => {
    expect(() => normalizeSessionFolder(raw, { allowDotFolders: true })).toThrow(PaleeError);
  });

  it.each(["palee\nsessions", "palee\r/x", "pa\tlee", ".trash", "x/.Trash/y", ".config", "Study/.CONFIG/x"])(
    "refuses %j for the CLI and the plugin alike (line breaks, the trash, Obsidian's configuration)",
    (raw) => {
      for (const allowDotFolders of [true, false]) {
        expect(() => normalizeSessionFolder(raw, { allowDotFolders, configDir: ".config" })).toThrow(
          /control character|not the learner's/,
        );
      }
    },
  );

  it("refuses dot-folders for the plugin and explains why, but allows them for the CLI", () => {
    expect(() => normalizeSessionFolder(".palee", { allowDotFolders: false })).toThrow(
      /Obsidian does not index dot-folders/,
    );
    expect(normalizeSessionFolder(".palee", { allowDotFolders: true })).toBe(".palee");
  });
});

describe("deletion boundary", () => {
  const layout = layoutFor("palee");

  it("allows drafts directly inside the sessions folder", () => {
    expect(() => assertRemovable(layout, "palee/sessions/DRAFT-S-0123abcd.md")).not.toThrow();
  });

  it.each([
    "palee/sessions/S-20260814T120000-abcd.md",
    "palee/hot.md",
    "palee/index.md",
    "palee/sessions/sub/DRAFT-S-0123abcd.md",
    "palee/sessions/../DRAFT-S-0123abcd.md",
    "palee/sessions/DRAFT-S-..%2f.md",
    "palee/sessions/DRAFT-S-../../x.md",
    "other/sessions/DRAFT-S-0123abcd.md",
    "/palee/sessions/DRAFT-S-0123abcd.md",
    "palee/sessionsX/DRAFT-S-0123abcd.md",
    "Notes/My note.md",
    "palee/sessions/DRAFT-S-0123abcd.txt",
  ])("refuses %j", (path) => {
    expect(() => assertRemovable(layout, path)).toThrow(BoundaryError);
  });
});
