// Reading a file the user named (a kernel template) without ever blocking: a FIFO, a device or a
// socket would block `readFileSync` for ever (and leak a worker per edit in the server), so the file is
// opened non-blocking, checked to be a plain file, and read only then; files over `maxBytes` are refused.
import * as fs from 'node:fs';

/** Largest template read (bytes). */
export const MAX_TEMPLATE_BYTES = 4 * 1024 * 1024;

/** The text of a plain file, or undefined for anything else (missing, special, too large, unreadable). */
export function readPlainFile(path: string, maxBytes = MAX_TEMPLATE_BYTES): string | undefined {
  const r = readPlainFileOr(path, maxBytes);
  return typeof r === 'string' ? r : undefined;
}

/** Why a file was not read: it does not exist, or a reason to show ("is a FIFO, not a plain file"). */
export type NotRead = { missing: true } | { unreadable: string };

/** The text of a plain file, or why it was not read. */
export function readPlainFileOr(path: string, maxBytes = MAX_TEMPLATE_BYTES): string | NotRead {
  let fd: number | undefined;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { unreadable: `is ${kindOf(st)}, not a plain file` };
    if (st.size > maxBytes) return { unreadable: `has ${st.size.toLocaleString('en-US')} bytes, more than the ${maxBytes.toLocaleString('en-US')} read` };
    return fs.readFileSync(fd, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true };
    return { unreadable: `cannot be read (${code ?? (e instanceof Error ? e.message : String(e))})` };
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

function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'a special file';
}
