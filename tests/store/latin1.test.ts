/**
 * Latin-1 bytes in a draft or a hand-written hot.md (issue 35 §4): read as the characters they stand for, never
 * U+FFFD, so a checkpoint or start that rewrites the file keeps them (written back in UTF-8).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { decodeText } from "../../src/node/file-text";
import { cleanupVaults, makeVault, palee, writeFile } from "../cli/support";

afterEach(cleanupVaults);

describe("decodeText", () => {
  it("reads UTF-8 as UTF-8, and each stray byte as its Latin-1 character", () => {
    expect(decodeText(Buffer.from("café ✓", "utf8"))).toBe("café ✓");
    expect(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9]))).toBe("café");
    // Mixed: a UTF-8 é, then a Latin-1 é, then a cut sequence at the end.
    expect(decodeText(Buffer.from([0xc3, 0xa9, 0x20, 0xe9, 0x20, 0xe2, 0x9c]))).toBe("é é â\u009c");
    expect(decodeText(Buffer.from("plain", "latin1"))).toBe("plain");
  });
});

describe("a Latin-1 file rewritten by the CLI", () => {
  it("keeps a hand-written hot.md's é when start adds its frontmatter, and a draft's when checkpointed", () => {
    const vault = makeVault();
    writeFile(vault, "palee/hot.md", Buffer.from("Mes notes: caf\xe9 cr\xe8me\n", "latin1"));
    expect(palee(vault, ["start", "--topic", "T-fr"]).status).toBe(0);
    const hot = fs.readFileSync(path.join(vault, "palee", "hot.md"), "utf8");
    expect(hot).toContain("Mes notes: café crème");
    expect(hot).not.toContain("\ufffd");
    const sessions = path.join(vault, "palee", "sessions");
    const [draft] = fs.readdirSync(sessions).filter((f) => f.startsWith("DRAFT-"));
    const file = path.join(sessions, draft);
    fs.writeFileSync(file, Buffer.concat([fs.readFileSync(file), Buffer.from("- d\xe9j\xe0 vu\n", "latin1")]));
    expect(palee(vault, ["draft", "--note", "next"]).status).toBe(0);
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain("- déjà vu");
    expect(text).not.toContain("\ufffd");
  });
});
