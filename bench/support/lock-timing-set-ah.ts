import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set AH for `bench/lock-timing.ts` (issue #32), written and committed before session 25's
 * first model change and run on the model as it stood (session 24's last, 9821d46), so it judges a
 * model no held-out set has yet. Shapes no earlier set or calibration table has:
 * - marketplace listings keyed by a bigint in listing order, a seller (ON DELETE CASCADE, a few
 *   dozen listings a seller), a sku in text, a title, a price in int cents, a currency in char(3)
 *   NULL on a few rows, a state in smallint, attributes in jsonb (colour, brand, size; a GIN index
 *   with the default operator class), a search vector GENERATED from the title and STORED (GIN
 *   indexed), a listing time; indexes on seller and price and on the listing time besides the
 *   key; an AFTER DELETE row trigger that writes each removed listing's id to a log;
 * - statements: a CHECK on the price added NOT VALID then validated, an UPDATE merging a key into
 *   the attributes where a jsonb field is red (an expression the planner cannot estimate; the
 *   attributes' GIN index maintained), an UPDATE of the price of old listings (an indexed
 *   column: not HOT), an UPDATE of the title (the generated vector and its GIN index follow), a
 *   DELETE of expired listings through the trigger, a DELETE of closed sellers cascading into their
 *   listings (and the trigger), an INSERT ... SELECT of a modulo's worth of prices into a history,
 *   a CREATE TABLE AS of one seller band's listings, a BRIN index on the listing time, a hash index
 *   on the sku, an index on a jsonb field's text, a two-column index built CONCURRENTLY, the price
 *   widened to bigint (a rewrite with two GIN indexes), a column added with a volatile default (a
 *   rewrite), SET NOT NULL on the currency after a backfill, and a column dropped.
 * Variant A: 1M listings, sellers taking turns, attributes of about 60 bytes. Variant B: 300k
 * listings in no heap order, a twentieth of the sellers holding most, attributes with a 400-byte
 * description on two fifths of the rows, at fillfactor 80.
 */
export function setAH(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const sellers = 30_000;
  // In B the rows go in by a permutation of g (a multiplier prime to n), in bigint (the products pass 2^31).
  const k = b ? `((g::bigint * 7919) % ${n} + 1)` : 'g::bigint';
  const seller = b ? `CASE WHEN ${k} % 10 < 7 THEN 1 + (${k} * 17) % 1500 ELSE 1 + (${k} * 29) % ${sellers} END` : `1 + ${k} % ${sellers}`;
  const listed = `timestamptz '2022-06-01' + (${k} * 94608000.0 / ${n}) * interval '1 second'`;
  const colour = `(ARRAY['red', 'blue', 'green', 'black', 'white', 'grey', 'navy', 'beige', 'olive', 'pink', 'teal', 'gold'])[1 + (${k} * 7) % 12]`;
  const brand = `'brand-' || (${k} * 13) % 400`;
  const details = b ? `CASE WHEN ${k} % 5 < 2 THEN jsonb_build_object('details', repeat(md5(${k}::text), 12)) ELSE '{}'::jsonb END` : `'{}'::jsonb`;
  const attrs = `jsonb_build_object('colour', ${colour}, 'brand', ${brand}, 'size', (${k} * 3) % 48) || ${details}`;
  const title = `(ARRAY['Vintage', 'New', 'Handmade', 'Refurbished', 'Classic'])[1 + ${k} % 5] || ' ' || (ARRAY['lamp', 'chair', 'jacket', 'camera', 'bicycle', 'teapot', 'rug'])[1 + (${k} * 3) % 7] || ' no. ' || ${k}`;
  const setup = [
    `DROP TABLE IF EXISTS hah_listings, hah_sellers, hah_removed, hah_price_history, hah_band CASCADE`,
    `DROP FUNCTION IF EXISTS hah_log_removed() CASCADE`,
    `CREATE TABLE hah_sellers (id int PRIMARY KEY, name text NOT NULL, closed boolean NOT NULL)`,
    `INSERT INTO hah_sellers SELECT g, 'seller ' || g, g % 151 = 0 FROM generate_series(1, ${sellers}) g`,
    `CREATE TABLE hah_listings (id bigint PRIMARY KEY, seller_id int NOT NULL REFERENCES hah_sellers (id) ON DELETE CASCADE, sku text NOT NULL,
       title text NOT NULL, price_cents int NOT NULL, currency char(3), state smallint NOT NULL, attrs jsonb NOT NULL,
       search tsvector GENERATED ALWAYS AS (to_tsvector('simple', title)) STORED, listed_at timestamptz NOT NULL, legacy_code text)${b ? ' WITH (fillfactor = 80)' : ''}`,
    `INSERT INTO hah_listings (id, seller_id, sku, title, price_cents, currency, state, attrs, listed_at, legacy_code)
     SELECT ${k}, ${seller}, upper(substr(md5('sku' || ${k}), 1, 10)), ${title}, 100 + (${k} * 7907) % 250000,
            CASE WHEN ${k} % 40 = 0 THEN NULL ELSE (ARRAY['EUR', 'USD', 'GBP'])[1 + ${k} % 3] END, (${k} * 11) % 4, ${attrs}, ${listed},
            CASE WHEN ${k} % 3 = 0 THEN 'L' || ${k} END
     FROM generate_series(1, ${n}) g`,
    `CREATE INDEX hah_listings_seller_price ON hah_listings (seller_id, price_cents)`,
    `CREATE INDEX hah_listings_listed ON hah_listings (listed_at)`,
    `CREATE INDEX hah_listings_attrs ON hah_listings USING gin (attrs)`,
    `CREATE INDEX hah_listings_search ON hah_listings USING gin (search)`,
    `CREATE TABLE hah_removed (listing_id bigint NOT NULL, removed_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE FUNCTION hah_log_removed() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN INSERT INTO hah_removed (listing_id) VALUES (OLD.id); RETURN OLD; END$$`,
    `CREATE TRIGGER hah_listings_removed AFTER DELETE ON hah_listings FOR EACH ROW EXECUTE FUNCTION hah_log_removed()`,
    `CREATE TABLE hah_price_history (listing_id bigint NOT NULL, price_cents int NOT NULL, at timestamptz NOT NULL)`,
    `VACUUM ANALYZE hah_sellers, hah_listings`,
  ];
  const statements = [
    `SETUP ALTER TABLE hah_listings ADD CONSTRAINT hah_price_ok CHECK (price_cents > 0) NOT VALID`,
    `ALTER TABLE hah_listings VALIDATE CONSTRAINT hah_price_ok`,
    `UPDATE hah_listings SET attrs = attrs || '{"promoted": true}' WHERE attrs ->> 'colour' = 'red'`,
    `UPDATE hah_listings SET price_cents = price_cents * 9 / 10 WHERE listed_at < timestamptz '2022-10-01'`,
    `UPDATE hah_listings SET title = title || ' (used)' WHERE state = 2 AND listed_at < timestamptz '2023-01-01'`,
    `DELETE FROM hah_listings WHERE state = 3 AND listed_at < timestamptz '2022-12-01'`,
    `DELETE FROM hah_sellers WHERE closed`,
    `INSERT INTO hah_price_history SELECT id, price_cents, listed_at FROM hah_listings WHERE id % 9 = 4`,
    `CREATE TABLE hah_band AS SELECT id, seller_id, price_cents, attrs FROM hah_listings WHERE seller_id BETWEEN 1000 AND 4000`,
    `CREATE INDEX hah_c1 ON hah_listings USING brin (listed_at)`,
    `DROP INDEX hah_c1`,
    `CREATE INDEX hah_c2 ON hah_listings USING hash (sku)`,
    `DROP INDEX hah_c2`,
    `CREATE INDEX hah_c3 ON hah_listings ((attrs ->> 'brand'))`,
    `DROP INDEX hah_c3`,
    `CREATE INDEX CONCURRENTLY hah_c4 ON hah_listings (state, listed_at)`,
    `DROP INDEX hah_c4`,
    `ALTER TABLE hah_listings ALTER COLUMN price_cents TYPE bigint`,
    `ALTER TABLE hah_listings ADD COLUMN public_ref uuid NOT NULL DEFAULT gen_random_uuid()`,
    `SETUP UPDATE hah_listings SET currency = 'EUR' WHERE currency IS NULL`,
    `ALTER TABLE hah_listings ALTER COLUMN currency SET NOT NULL`,
    `ALTER TABLE hah_listings DROP COLUMN legacy_code`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) =>
      // CREATE TABLE AS reads the listings (its own table does not exist before it).
      sql.startsWith('INSERT INTO hah_price_history ') ? 'hah_price_history' : sql.includes('hah_sellers WHERE') ? 'hah_sellers' : 'hah_listings',
  };
}
