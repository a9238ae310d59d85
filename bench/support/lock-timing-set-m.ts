import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set M for `bench/lock-timing.ts` (issue #32, sixth round), written and committed after
 * the round's last model change (a foreign key's VALIDATE priced as a validation) and run once on
 * the model as the round leaves it. Shapes no earlier set or calibration table has:
 * - chat messages: an identity key, channels referenced ON DELETE CASCADE through a two-column
 *   index, a uuid author under a partial index, `char(2)` languages, `int[]` reactions, a
 *   nullable sent_at, soft deletes;
 * - statements: an UPDATE on a range of the second key of a composite index, a DELETE of soft
 *   deleted rows, an array operator on `cardinality()` rows, a text append on one channel's
 *   rows, an INSERT ... SELECT on a time range, a cascading DELETE of channels, a two-column
 *   index on a char(2), GIN on int[], a partial covering index, an index built CONCURRENTLY, a
 *   CHECK with a regular expression, char(2) to varchar(5), a stored generated column over an
 *   array, SET NOT NULL.
 * Variant A: 1M messages of about 80 bytes over 5,000 channels. Variant B: 400k messages of
 * about 700 bytes, half of them in ten channels.
 */
export function setM(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const channels = 5_000;
  const channel = b ? `CASE WHEN g % 2 = 0 THEN 1 + g % 10 ELSE 1 + (g * 7) % ${channels} END` : `1 + (g * 7) % ${channels}`;
  const body = b ? `repeat('chat ' || (g % 97) || ' ', 60) || md5(g::text)` : `'message ' || g || ' ' || md5(g::text)`;
  const reactions = `(SELECT coalesce(array_agg(k), '{}') FROM generate_series(1, (g % 6)::int) k)`;
  const setup = [
    `DROP TABLE IF EXISTS hm_messages, hm_channels CASCADE`,
    `CREATE TABLE hm_channels (id int PRIMARY KEY, name text NOT NULL)`,
    `INSERT INTO hm_channels SELECT g, 'channel ' || g FROM generate_series(1, ${channels}) g`,
    `CREATE TABLE hm_messages (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id int NOT NULL REFERENCES hm_channels (id) ON DELETE CASCADE,
       author uuid NOT NULL, sent_at timestamptz, edited boolean NOT NULL, body text NOT NULL, reactions int[] NOT NULL, lang char(2) NOT NULL, deleted_at timestamptz)`,
    `INSERT INTO hm_messages (channel_id, author, sent_at, edited, body, reactions, lang, deleted_at)
     SELECT ${channel}, md5((g % 30000)::text)::uuid, timestamptz '2024-01-01' + g * interval '20 seconds', g % 9 = 0, ${body}, ${reactions},
            (ARRAY['en','de','fr','es','pt'])[1 + g % 5], CASE WHEN g % 25 = 0 THEN timestamptz '2024-01-01' + g * interval '21 seconds' END
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hm_messages_channel ON hm_messages (channel_id, sent_at)`,
    `CREATE INDEX hm_messages_author ON hm_messages (author) WHERE deleted_at IS NULL`,
    `VACUUM ANALYZE hm_channels, hm_messages`,
  ];
  const at = (share: number) => `timestamptz '2024-01-01' + interval '${Math.round(n * 20 * share)} seconds'`;
  const statements = [
    `UPDATE hm_messages SET edited = true WHERE sent_at >= ${at(0.4)} AND sent_at < ${at(0.5)}`,
    `DELETE FROM hm_messages WHERE deleted_at IS NOT NULL AND deleted_at < ${at(0.6)}`,
    `UPDATE hm_messages SET reactions = reactions || 1 WHERE cardinality(reactions) > 3`,
    `UPDATE hm_messages SET body = body || ' (edited)' WHERE channel_id = 7`,
    `INSERT INTO hm_messages (channel_id, author, sent_at, edited, body, reactions, lang)
     SELECT channel_id, author, sent_at + interval '1 year', false, body, '{}', lang FROM hm_messages WHERE sent_at < ${at(0.15)}`,
    `DELETE FROM hm_channels WHERE id > ${channels - 100}`,
    `CREATE INDEX hm_m1 ON hm_messages (lang, sent_at DESC)`,
    `DROP INDEX hm_m1`,
    `CREATE INDEX hm_m2 ON hm_messages USING gin (reactions)`,
    `DROP INDEX hm_m2`,
    `CREATE INDEX hm_m3 ON hm_messages (author) INCLUDE (sent_at) WHERE NOT edited`,
    `DROP INDEX hm_m3`,
    `CREATE INDEX CONCURRENTLY hm_m4 ON hm_messages (sent_at)`,
    `DROP INDEX hm_m4`,
    `ALTER TABLE hm_messages ADD CONSTRAINT hm_lang_ok CHECK (lang ~ '^[a-z]{2}$')`,
    `ALTER TABLE hm_messages ALTER COLUMN lang TYPE varchar(5)`,
    `ALTER TABLE hm_messages ADD COLUMN score numeric GENERATED ALWAYS AS (cardinality(reactions) * 1.5) STORED`,
    `ALTER TABLE hm_messages ALTER COLUMN sent_at SET NOT NULL`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (/^DELETE FROM hm_channels/.test(sql) ? 'hm_channels' : 'hm_messages'),
  };
}
