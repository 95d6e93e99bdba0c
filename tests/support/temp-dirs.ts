import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Scratch directories for one test file, all removed by `removeAll()` (call it in afterAll), so a
 * test run leaves nothing behind in the system's temp directory.
 */
export function tempDirs() {
  const made: string[] = [];
  return {
    make(prefix: string): string {
      const dir = mkdtempSync(path.join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    removeAll(): void {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
