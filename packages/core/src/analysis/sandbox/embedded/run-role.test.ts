import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { type AdminConnect, createRunIdentity, dropRunIdentity } from './run-role';

/** Superuser sessions as the embedded server would open them, recorded: which database, what each was sent, whether it was closed. */
function recordingAdmin(fail?: RegExp): { connect: AdminConnect; sessions: Array<{ database: string | undefined; sent: string[]; ended: boolean }> } {
  const sessions: Array<{ database: string | undefined; sent: string[]; ended: boolean }> = [];
  const connect: AdminConnect = async (database) => {
    const session = { database, sent: [] as string[], ended: false };
    sessions.push(session);
    const client = {
      async query(sql: string) {
        session.sent.push(sql);
        if (fail?.test(sql)) throw new Error('copy failed');
        return { rows: [] };
      },
      async end() {
        session.ended = true;
      },
    };
    return client as unknown as pg.Client;
  };
  return { connect, sessions };
}

describe('a run identity on the embedded server', () => {
  it('makes the role and copies the template on one session of the maintenance database, then hands the copy over on a session of its own', async () => {
    const { connect, sessions } = recordingAdmin();
    const laps: string[] = [];
    const run = await createRunIdentity(connect, 'dbops_clone_x', undefined, (step) => laps.push(step));
    expect(laps).toEqual(['role', 'copy', 'reassign']);
    expect(sessions.map((s) => s.database)).toEqual([undefined, run.database]);
    expect(sessions[0]!.sent).toHaveLength(2);
    expect(sessions[0]!.sent[0]).toMatch(/^CREATE ROLE /);
    expect(sessions[0]!.sent[1]).toMatch(/^CREATE DATABASE .* TEMPLATE dbops_clone_x$/);
    expect(sessions[1]!.sent[0]).toMatch(/REASSIGN OWNED BY dbops_clone_owner TO /);
    expect(sessions.every((s) => s.ended)).toBe(true);
  });

  it('drops the database and then the role on one session', async () => {
    const { connect, sessions } = recordingAdmin();
    await dropRunIdentity(connect, { role: 'dbops_run_a', password: 'p', database: 'dbops_run_a' });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.sent).toEqual(['DROP DATABASE IF EXISTS dbops_run_a WITH (FORCE)', 'DROP ROLE IF EXISTS dbops_run_a']);
    expect(sessions[0]!.ended).toBe(true);
  });

  it('drops the role it made when the copy fails, and says why', async () => {
    const { connect, sessions } = recordingAdmin(/^CREATE DATABASE/);
    await expect(createRunIdentity(connect, 'dbops_clone_x')).rejects.toThrow('copy failed');
    const role = /^CREATE ROLE (\S+)/.exec(sessions[0]!.sent[0]!)![1];
    expect(sessions.at(-1)!.sent).toContain(`DROP ROLE IF EXISTS ${role}`);
    expect(sessions.every((s) => s.ended)).toBe(true);
  });
});
