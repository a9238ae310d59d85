import { describe, expect, it } from 'vitest';
import { analyzeStatements } from '../analyze-statements';
import { nodeKind } from '../ast';
import { parseStatements } from '../parse-statements';
import { buildSchemaIndex } from '../schema-index';
import { shopSnapshot } from '../test-schema';
import { RULES } from './index';
import type { Rule } from './rule';

// One statement of (nearly) every kind, many of them unsafe, so a rule whose `kinds` list is too
// narrow shows up as a warning on a kind outside the list.
const SQL = `
BEGIN;
BEGIN;
CREATE TABLE audit_log (id serial PRIMARY KEY, code char(4), n smallint, at timestamp, label varchar(40), order_id bigint REFERENCES orders(id));
CREATE TABLE IF NOT EXISTS audit_log_p PARTITION OF events FOR VALUES FROM (1) TO (10);
ALTER TABLE orders ADD COLUMN n integer NOT NULL, ADD COLUMN u uuid DEFAULT gen_random_uuid(), ADD COLUMN k bigserial PRIMARY KEY, ADD COLUMN t timestamp, ADD COLUMN v varchar(10);
ALTER TABLE orders ADD CONSTRAINT o_fk FOREIGN KEY (customer_id) REFERENCES customers(id);
ALTER TABLE shipments ADD CONSTRAINT s_fk FOREIGN KEY (order_id) REFERENCES orders(id) NOT VALID;
ALTER TABLE orders ADD PRIMARY KEY (id), ADD UNIQUE (total), ADD CHECK (total > 0);
ALTER TABLE orders ALTER COLUMN total TYPE numeric(8,2), ALTER COLUMN status DROP NOT NULL, ALTER COLUMN customer_id SET NOT NULL;
ALTER TABLE customers ALTER COLUMN email TYPE varchar(20);
ALTER TABLE customers DROP COLUMN email CASCADE;
ALTER TABLE orders ALTER COLUMN total SET DEFAULT 0;
ALTER INDEX orders_customer_id_idx SET (fillfactor = 70);
CREATE INDEX orders_total_idx ON orders (total);
CREATE UNIQUE INDEX CONCURRENTLY orders_total_u ON orders (total);
DROP INDEX orders_customer_id_idx;
DROP INDEX CONCURRENTLY orders_total_idx;
DROP TABLE customers;
DROP TABLE orders CASCADE;
DROP VIEW customer_emails;
DROP TYPE order_status CASCADE;
DROP SCHEMA archive CASCADE;
TRUNCATE order_items CASCADE;
-- dbops:batched key=id size=0
UPDATE orders SET total = 0;
DELETE FROM customers;
INSERT INTO products (id, sku, price) VALUES (1, 'a', 1);
MERGE INTO products p USING products q ON p.id = q.id WHEN MATCHED THEN DELETE;
ALTER TABLE customers RENAME COLUMN name TO full_name;
ALTER TABLE customers RENAME TO clients;
ALTER INDEX orders_customer_id_idx RENAME TO orders_cust_idx;
ALTER TYPE order_status ADD VALUE 'refunded';
ALTER TYPE order_status RENAME VALUE 'paid' TO 'settled';
CREATE DOMAIN positive_int AS integer CHECK (VALUE > 0);
ALTER DOMAIN positive_int ADD CONSTRAINT p CHECK (VALUE < 100);
CREATE VIEW v AS SELECT * FROM orders;
CREATE OR REPLACE VIEW customer_emails AS SELECT id, email FROM customers;
CREATE MATERIALIZED VIEW mv AS SELECT * FROM orders;
REFRESH MATERIALIZED VIEW mv;
CREATE TABLE orders_copy AS SELECT * FROM orders;
CLUSTER orders USING orders_pkey;
VACUUM FULL events;
ANALYZE events;
REINDEX TABLE CONCURRENTLY events;
REINDEX TABLE events;
ALTER TABLE events DETACH PARTITION events_2024;
LOCK TABLE events IN ACCESS EXCLUSIVE MODE;
CREATE TRIGGER t BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION f();
CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TYPE mood AS ENUM ('sad', 'ok');
CREATE SEQUENCE seq_a;
CREATE STATISTICS st ON customer_id, status FROM orders;
CREATE POLICY p ON orders USING (true);
CREATE RULE r AS ON INSERT TO orders DO INSTEAD NOTHING;
COMMENT ON TABLE orders IS 'x';
SELECT 1;
CREATE TABLE a_table_name_that_is_much_longer_than_sixty_three_bytes_allowed_by_postgres (id bigint);
SET lock_timeout = '1s';
ALTER SYSTEM SET work_mem = '64MB';
COMMIT;
COMMIT;
ROLLBACK;
CREATE TABLE later_t (id bigint);
CREATE INDEX CONCURRENTLY later_idx ON orders (status);
ALTER TABLE customers ALTER COLUMN name SET NOT NULL;
DROP DATABASE shop;
BEGIN
`;

describe('rule kinds', () => {
  it('no rule reports on a statement kind outside its kinds list', async () => {
    const parsed = await parseStatements(SQL);
    const restricted = RULES.filter((r) => r.kinds);
    // The same rules without their kinds, so they run on every statement.
    const everywhere: Rule[] = restricted.map((r) => ({ name: r.name, severity: r.severity, doc: r.doc, check: r.check.bind(r) }));
    const items = analyzeStatements(parsed, buildSchemaIndex(shopSnapshot()), { rules: everywhere });
    const fired = new Set<string>();
    const outside: string[] = [];
    items.forEach((item, i) => {
      const kind = nodeKind(parsed[i]!.stmt);
      for (const w of item.report.warnings) {
        const rule = restricted.find((r) => w.startsWith(`[${r.name}]`))!;
        fired.add(rule.name);
        if (!rule.kinds!.includes(kind)) outside.push(`${kind}: ${w}`);
      }
    });
    expect(outside).toEqual([]);
    // The statements above exercise every restricted rule, so the check is not vacuous.
    expect(restricted.map((r) => r.name).filter((n) => !fired.has(n))).toEqual([]);
  });
});
