import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/**
 * Fresh temp folders for the tests of the describe block (or file) that calls this: each test makes its own,
 * and they are removed after it.
 */
export function tempFolders(): (prefix: string) => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
