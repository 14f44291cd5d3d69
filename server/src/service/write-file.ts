// Writing a generated file safely, for `layout emit` and the editor's emit (both write through here):
// - the content goes to a new temporary file in the destination's folder (created exclusively, so an
//   existing file or link of that name is never opened), is flushed, then renamed over the
//   destination: a reader sees the old file or the new one, never a truncated one;
// - a symbolic link at the destination is refused (never written through, never replaced), as is
//   anything that is not a plain file (a folder, a FIFO, a device);
// - a read-only destination is refused with a clear message instead of being silently replaced;
// - on any failure (a full disk, say) the temporary file is removed and the old file is untouched.
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { randomBytes } from 'node:crypto';

/** The file-system calls used (tests substitute failing ones). */
export interface WriteFs {
  lstatSync: typeof fs.lstatSync;
  accessSync: typeof fs.accessSync;
  openSync: typeof fs.openSync;
  writeSync: (fd: number, data: Buffer, offset: number, length: number) => number;
  fsyncSync: typeof fs.fsyncSync;
  closeSync: typeof fs.closeSync;
  renameSync: typeof fs.renameSync;
  unlinkSync: typeof fs.unlinkSync;
  chmodSync: typeof fs.chmodSync;
}

const realFs: WriteFs = {
  lstatSync: fs.lstatSync,
  accessSync: fs.accessSync,
  openSync: fs.openSync,
  writeSync: (fd, data, offset, length) => fs.writeSync(fd, data, offset, length),
  fsyncSync: fs.fsyncSync,
  closeSync: fs.closeSync,
  renameSync: fs.renameSync,
  unlinkSync: fs.unlinkSync,
  chmodSync: fs.chmodSync,
};

export type WriteOutcome = { ok: true; bytes: number } | { ok: false; reason: string };

/** Writes `content` to `absPath` atomically (see the file comment). Never throws. */
export function writeFileAtomic(absPath: string, content: string | Buffer, io: WriteFs = realFs): WriteOutcome {
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  let mode: number | undefined;
  try {
    const st = io.lstatSync(absPath);
    if (st.isSymbolicLink()) return { ok: false, reason: 'it is a symbolic link; links are never written through (remove it, or emit elsewhere)' };
    if (!st.isFile()) return { ok: false, reason: st.isDirectory() ? 'it is a folder' : 'it is not a plain file' };
    // the mode bits too: a privileged user may write anything, but a file nobody may write is read-only on purpose
    let writable = (st.mode & 0o222) !== 0;
    try {
      io.accessSync(absPath, fs.constants.W_OK);
    } catch {
      writable = false;
    }
    if (!writable) return { ok: false, reason: 'it is read-only; make it writable to replace it' };
    mode = st.mode & 0o7777;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') return { ok: false, reason: describe(e) };
  }
  const dir = nodePath.dirname(absPath);
  const tmp = nodePath.join(dir, `.${nodePath.basename(absPath)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    // O_EXCL: fails rather than opening anything that already has the name (a planted link included)
    fd = io.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, mode ?? 0o666);
    let off = 0;
    while (off < data.length) {
      const n = io.writeSync(fd, data, off, data.length - off);
      if (n <= 0) throw Object.assign(new Error('short write'), { code: 'EIO' });
      off += n;
    }
    io.fsyncSync(fd);
    io.closeSync(fd);
    fd = undefined;
    if (mode !== undefined) io.chmodSync(tmp, mode);
    io.renameSync(tmp, absPath);
    return { ok: true, bytes: data.length };
  } catch (e) {
    if (fd !== undefined) {
      try {
        io.closeSync(fd);
      } catch {
        /* already failing */
      }
    }
    try {
      io.unlinkSync(tmp);
    } catch {
      /* never created */
    }
    return { ok: false, reason: describe(e) };
  }
}

function describe(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOSPC': return 'the disk is full (ENOSPC); the old file is unchanged';
    case 'EDQUOT': return 'the disk quota is exceeded (EDQUOT); the old file is unchanged';
    case 'EACCES': case 'EPERM': return `permission denied (${code})`;
    case 'EROFS': return 'the file system is read-only (EROFS)';
    case 'ENOENT': return 'its folder does not exist (ENOENT)';
    case 'ENOTDIR': return 'a part of its path is not a folder (ENOTDIR)';
    default: return code ? `${code}` : e instanceof Error ? e.message : String(e);
  }
}
