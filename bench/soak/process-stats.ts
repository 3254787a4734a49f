/**
 * Resident memory and open file descriptors of a process, read from outside through /proc
 * (Linux), and the search of a process tree for the service and the Temporal dev server.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** One reading of a process. */
export interface ProcessSample {
  rssBytes: number;
  /** Entries of /proc/<pid>/fd: sockets, pipes, files, timers and event fds the process holds open. */
  fds: number;
}

/** The process's RSS (VmRSS) and open descriptors; undefined once it has exited. */
export function sampleProcess(pid: number): ProcessSample | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
    if (kb === undefined) return undefined;
    return { rssBytes: Number(kb) * 1024, fds: readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return undefined;
  }
}

/** Parent pid of every live process, read from /proc/<pid>/stat. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: fields start after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      out.set(Number(entry), ppid);
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** The first descendant of `root` (breadth first) whose command line contains `text`. */
export function findDescendant(root: number, text: string): number | undefined {
  const tree = parents();
  let level = [root];
  while (level.length > 0) {
    const next = [...tree].filter(([, ppid]) => level.includes(ppid)).map(([pid]) => pid);
    const hit = next.find((pid) => commandLine(pid).includes(text));
    if (hit !== undefined) return hit;
    level = next;
  }
  return undefined;
}
