-- The build lints this once to store V8's code cache of the lint path (src/lint-script.ts): the
-- statements below make the parser, the statement facts, most rules and the reporters run, so
-- their functions are compiled into the cache. Findings here are wanted.
CREATE TABLE sample_account (id serial PRIMARY KEY, code char(4), n integer, s smallint, at timestamp, label varchar(40), owner_id bigint REFERENCES sample_owner (id));
CREATE INDEX sample_account_code ON sample_account (code);
ALTER TABLE sample_order ADD COLUMN total numeric NOT NULL DEFAULT 0, ADD COLUMN ref uuid DEFAULT gen_random_uuid();
ALTER TABLE sample_order ADD CONSTRAINT sample_order_owner FOREIGN KEY (owner_id) REFERENCES sample_owner (id);
ALTER TABLE sample_order ADD CONSTRAINT sample_order_total CHECK (total > 0);
ALTER TABLE sample_order ADD PRIMARY KEY (id), ADD UNIQUE (code);
ALTER TABLE sample_order ALTER COLUMN total TYPE numeric(8,2), ALTER COLUMN status DROP NOT NULL, ALTER COLUMN code SET NOT NULL;
ALTER TABLE sample_order DROP COLUMN legacy;
ALTER TABLE sample_order RENAME COLUMN a TO b;
ALTER TABLE sample_order RENAME TO sample_purchase;
CREATE UNIQUE INDEX CONCURRENTLY sample_purchase_code ON sample_purchase (code);
DROP INDEX sample_purchase_old;
REINDEX TABLE sample_purchase;
DROP TABLE sample_gone;
TRUNCATE sample_item CASCADE;
UPDATE sample_purchase SET total = 0;
DELETE FROM sample_owner WHERE id > 10;
INSERT INTO sample_purchase (note) VALUES ('a "quoted" note');
ALTER TYPE sample_mood ADD VALUE 'meh' BEFORE 'ok';
CREATE DOMAIN sample_positive AS integer CHECK (VALUE > 0);
CREATE VIEW sample_view AS SELECT id, total FROM sample_purchase;
CREATE FUNCTION sample_fn() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER sample_trigger BEFORE INSERT ON sample_purchase FOR EACH ROW EXECUTE FUNCTION sample_fn();
BEGIN;
CREATE INDEX sample_purchase_total ON sample_purchase (total);
COMMIT;
