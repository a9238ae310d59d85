import { readFile } from 'node:fs/promises';
import type pg from 'pg';

/** How often the backends of running runs are measured. */
const POLL_MS = 200;

/** A run being watched: its role, its bound, and what to do once it is crossed. */
interface Watched {
  role: string;
  boundBytes: number;
  exceeded(detail: string): void;
}

/**
 * Private memory of a server process (`RssAnon` in `/proc/<pid>/status`, in bytes): what a
 * backend allocates for itself (strings, arrays, sorts, hash tables), not the shared buffers
 * every backend maps. 0 when the process is gone or unreadable.
 */
export async function privateMemoryOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /^RssAnon:\s+(\d+)\s+kB/m.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : 0;
}

/**
 * Watches the memory of run roles' backends on one embedded server (the service started it, so
 * it may read its processes' `/proc` entries) and ends every backend of a run whose backends
 * together hold more private memory than the run's bound. PostgreSQL bounds sorts and hashes
 * (`work_mem`) and temporary files (`temp_file_limit`), but not a PL/pgSQL variable or an
 * expression building a string: without this, a few DO blocks concatenating strings took
 * gigabytes of the host. One admin session serves every run; it polls only while a run is
 * watched.
 */
export class MemoryWatch {
  private readonly watched = new Map<string, Watched>();
  private timer: NodeJS.Timeout | undefined;
  private client: Promise<pg.Client> | undefined;
  private polling = false;

  constructor(private readonly connect: () => Promise<pg.Client>) {}

  /** Starts watching `role`'s backends; the returned function stops it. */
  watch(role: string, boundBytes: number, exceeded: (detail: string) => void): () => void {
    this.watched.set(role, { role, boundBytes, exceeded });
    this.timer ??= setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
    return () => {
      this.watched.delete(role);
      if (this.watched.size > 0) return;
      clearInterval(this.timer);
      this.timer = undefined;
      const c = this.client;
      this.client = undefined;
      void c?.then((x) => x.end()).catch(() => undefined);
    };
  }

  private async poll(): Promise<void> {
    if (this.polling || this.watched.size === 0) return;
    this.polling = true;
    try {
      this.client ??= this.connect();
      const c = await this.client;
      const roles = [...this.watched.keys()];
      const { rows } = await c.query<{ pid: number; role: string }>('SELECT pid, usename AS role FROM pg_stat_activity WHERE usename = ANY($1::text[])', [
        roles,
      ]);
      const used = new Map<string, { bytes: number; pids: number[] }>();
      for (const r of rows) {
        const u = used.get(r.role) ?? { bytes: 0, pids: [] };
        u.bytes += await privateMemoryOf(r.pid);
        u.pids.push(r.pid);
        used.set(r.role, u);
      }
      for (const [role, u] of used) {
        const w = this.watched.get(role);
        if (!w || u.bytes <= w.boundBytes) continue;
        this.watched.delete(role);
        await c.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [u.pids]);
        w.exceeded(
          `its session held ${Math.round(u.bytes / 1024 / 1024)} MB of private memory, over the sandbox's bound of ${Math.round(w.boundBytes / 1024 / 1024)} MB per analysis`,
        );
      }
    } catch {
      // A failed poll (the server stopping, a session gone) is retried at the next tick.
      const c = this.client;
      this.client = undefined;
      void c?.then((x) => x.end()).catch(() => undefined);
    } finally {
      this.polling = false;
    }
  }
}
