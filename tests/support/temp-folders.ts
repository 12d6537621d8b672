import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { lockFilesOf } from "../../src/cli/lock-place";

/**
 * Fresh temp folders for the tests of the describe block (or file) that calls this: each test makes its own,
 * and they are removed after it, with the vault lock's files a folder used as a vault left in the machine's
 * lock folder (src/cli/lock-place.ts).
 */
export function tempFolders(): (prefix: string) => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) {
      const real = fs.existsSync(dir) ? fs.realpathSync(dir) : null;
      for (const file of real === null ? [] : Object.values(lockFilesOf(real))) fs.rmSync(file, { force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  return (prefix) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
