// Reading a file the user named (a kernel template) without ever blocking: a FIFO, a device or a
// socket would block `readFileSync` for ever (and leak a worker per edit in the server), so the file is
// opened non-blocking, checked to be a plain file, and read only then; files over `maxBytes` are refused.
import * as fs from 'node:fs';

/** Largest template read (bytes). */
export const MAX_TEMPLATE_BYTES = 4 * 1024 * 1024;

/** The text of a plain file, or undefined for anything else (missing, special, too large, unreadable). */
export function readPlainFile(path: string, maxBytes = MAX_TEMPLATE_BYTES): string | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return undefined;
    return fs.readFileSync(fd, 'utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        /* closed */
      }
    }
  }
}
