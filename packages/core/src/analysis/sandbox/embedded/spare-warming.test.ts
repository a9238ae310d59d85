import { describe, expect, it } from 'vitest';
import { SCHEMA_FINGERPRINT_SQL } from '../../schema-compare/fingerprint-sql';
import { WORDING_SETTINGS_SQL } from '../../schema-compare/catalog-census';
import type { CloneState } from '../sandbox-cache';
import type { SandboxSession } from '../sandbox-session';
import { warmSpareSession } from './spare-warming';

/** A session that answers every query with no rows and records what it was sent. */
function recordingSession(): SandboxSession & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    async exec(sql) {
      sent.push(sql);
    },
    async query<T>(sql: string) {
      sent.push(sql);
      return { rows: [] as T[] };
    },
    close: async () => undefined,
  };
}

const state = (): CloneState => ({ created: ['public.a'], skipped: [], rows: { inserted: 0, failures: [] }, countsBefore: [['public.a', 0]] });
const census = (sent: readonly string[]) => sent.filter((q) => q.includes('WITH ro AS'));

describe('warmSpareSession', () => {
  it("reads the clone's whole fingerprint once, as the first spare's baseline, under the runs' search path", async () => {
    const clone = state();
    const first = recordingSession();
    await warmSpareSession(first, ['public.a'], { state: clone, pathSql: 'SET search_path TO shop, public' });
    expect(first.sent).toContain('SET search_path TO shop, public');
    expect(first.sent.filter((q) => q === SCHEMA_FINGERPRINT_SQL)).toHaveLength(1);
    // The baseline is kept per clone: a second reading of it is not made.
    const again = recordingSession();
    await warmSpareSession(again, ['public.a'], { state: clone, pathSql: 'SET search_path TO shop, public' });
    expect(again.sent).not.toContain(SCHEMA_FINGERPRINT_SQL);
  });

  it("warms a later spare with what the proof's fast path reads after its round trip, not the whole fingerprint", async () => {
    const later = recordingSession();
    await warmSpareSession(later, ['public.a']);
    expect(later.sent).not.toContain(SCHEMA_FINGERPRINT_SQL);
    expect(census(later.sent)).toHaveLength(1);
    expect(later.sent).toContain(WORDING_SETTINGS_SQL);
    // The tables the validations count: the first query looks up which of them exist.
    expect(later.sent[0]).toMatch(/relkind IN \('r','p'\)/);
  });
});
