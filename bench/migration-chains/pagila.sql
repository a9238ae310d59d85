-- A migration chain of our own for pagila's schema (devrimgunduz/pagila @ 23f7fe7, read from the
-- mirror by bench/migration-chain-tokens.ts, never copied here). It exercises what the sandbox
-- could not clone before the schema model: domains, an enum, functions and an aggregate,
-- triggers, views and a materialized view, the payment table partitioned by month, extensions.
-- Sections start with `-- migration: <label>`; the first, `seed`, is a few rows of our own
-- applied directly (pagila's data files are not in the mirror). Some migrations are meant to be
-- rejected by PostgreSQL on these rows; the bench counts both kinds.

-- migration: seed
SET search_path = public;
SET session_replication_role = replica;
INSERT INTO language (language_id, name) VALUES (1, 'English'), (2, 'Italian');
INSERT INTO country (country_id, country) VALUES (1, 'Atlantis'), (2, 'Utopia');
INSERT INTO city (city_id, city, country_id) VALUES (1, 'Harbour', 1), (2, 'Hilltop', 2);
INSERT INTO address (address_id, address, address2, district, city_id, postal_code, phone) VALUES
  (1, '1 Quay Road', NULL, 'Docks', 1, '1000', '555-0101'),
  (2, '2 Ridge Way', 'Flat 3', 'Heights', 2, 'N/A', '555-0102'),
  (3, '3 Mill Lane', NULL, 'Docks', 1, NULL, '555-0103');
INSERT INTO staff (staff_id, first_name, last_name, address_id, store_id, username) VALUES (1, 'Ada', 'Keeper', 1, 1, 'ada'), (2, 'Bo', 'Keeper', 2, 2, 'bo');
INSERT INTO store (store_id, manager_staff_id, address_id) VALUES (1, 1, 1), (2, 2, 2);
INSERT INTO customer (customer_id, store_id, first_name, last_name, email, address_id, active) VALUES
  (1, 1, 'Cy', 'Renter', 'cy@example.test', 3, 1),
  (2, 1, 'Di', 'Renter', 'di@example.test', 3, 1),
  (3, 2, 'Ed', 'Viewer', NULL, 2, 0);
INSERT INTO actor (actor_id, first_name, last_name) VALUES (1, 'Fay', 'Stage'), (2, 'Gus', 'Stage'), (3, 'Hal', 'Screen');
INSERT INTO category (category_id, name) VALUES (1, 'Drama'), (2, 'Comedy');
INSERT INTO film (film_id, title, description, release_year, language_id, rental_rate, length, rating, fulltext) VALUES
  (1, 'Quiet Harbour', 'A slow film', 2006, 1, 0.99, 90, 'PG', to_tsvector('quiet harbour')),
  (2, 'Loud Hilltop', 'A fast film', 2010, 1, 2.99, 120, 'R', to_tsvector('loud hilltop')),
  (3, 'Empty Quay', NULL, 2012, 2, 4.99, 0, 'G', to_tsvector('empty quay'));
INSERT INTO film_actor (actor_id, film_id) VALUES (1, 1), (2, 1), (3, 2);
INSERT INTO film_category (film_id, category_id) VALUES (1, 1), (2, 2), (3, 1);
-- Inventory 9 points at a store that does not exist (loaded with the foreign keys off).
INSERT INTO inventory (inventory_id, film_id, store_id) VALUES (1, 1, 1), (2, 2, 1), (3, 3, 2), (9, 1, 99);
INSERT INTO rental (rental_id, rental_date, inventory_id, customer_id, return_date, staff_id) VALUES
  (1, '2022-01-10', 1, 1, '2022-01-12', 1), (2, '2022-02-03', 2, 2, NULL, 1), (3, '2022-02-20', 3, 3, '2022-02-21', 2);
INSERT INTO payment (payment_id, customer_id, staff_id, rental_id, amount, payment_date) VALUES
  (1, 1, 1, 1, 2.99, '2022-01-12'), (2, 2, 1, 2, 4.99, '2022-02-04'), (3, 3, 2, 3, 0.99, '2022-02-21');
SET session_replication_role = origin;
SELECT setval(s, 100) FROM unnest(ARRAY['actor_actor_id_seq', 'film_film_id_seq', 'payment_payment_id_seq', 'rental_rental_id_seq', 'customer_customer_id_seq']) AS s;
ANALYZE;

-- migration: 001_film_add_age_limit
ALTER TABLE film ADD COLUMN age_limit smallint;

-- migration: 002_refresh_rentals_by_category
REFRESH MATERIALIZED VIEW rental_by_category;

-- migration: 003_backfill_age_limit_through_a_function
CREATE FUNCTION age_limit_of(r mpaa_rating) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE r WHEN 'G' THEN 0 WHEN 'PG' THEN 8 WHEN 'PG-13' THEN 13 WHEN 'R' THEN 17 ELSE 18 END::smallint
$$;
UPDATE film SET age_limit = age_limit_of(rating);

-- migration: 004_year_domain_narrower
ALTER DOMAIN year ADD CONSTRAINT year_not_future CHECK (VALUE <= 2100);

-- migration: 005_trigram_search_on_titles
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX film_title_trgm_idx ON film USING gin (title gin_trgm_ops);

-- migration: 006_payment_partition_2026_08
CREATE TABLE payment_p2026_08 PARTITION OF payment FOR VALUES FROM ('2026-08-01 00:00:00+00') TO ('2026-09-01 00:00:00+00');

-- migration: 007_refund_a_payment
INSERT INTO payment (customer_id, staff_id, rental_id, amount, payment_date) VALUES (1, 1, 1, 0.00, '2022-01-20');

-- migration: 008_rating_value_for_adults
ALTER TYPE mpaa_rating ADD VALUE IF NOT EXISTS 'AO';

-- migration: 009_customer_balance_view
CREATE VIEW customer_balance AS
  SELECT c.customer_id, get_customer_balance(c.customer_id, now()) AS balance FROM customer c;

-- migration: 010_release_year_required
ALTER TABLE film ALTER COLUMN release_year SET NOT NULL;

-- migration: 011_address2_required (rejected: two addresses have no second line)
ALTER TABLE address ALTER COLUMN address2 SET NOT NULL;

-- migration: 012_unique_actor_last_name (rejected: two actors share a last name)
CREATE UNIQUE INDEX actor_last_name_key ON actor (last_name);

-- migration: 013_drop_column_a_view_reads (rejected: film_list reads it)
ALTER TABLE film DROP COLUMN rating;

-- migration: 014_widen_replacement_cost
ALTER TABLE film ALTER COLUMN replacement_cost TYPE numeric(7,2);

-- migration: 015_rental_return_after_rental
ALTER TABLE rental ADD CONSTRAINT rental_returned_after CHECK (return_date IS NULL OR return_date >= rental_date);

-- migration: 016_film_length_positive (rejected: a film has length 0)
ALTER TABLE film ADD CONSTRAINT film_length_positive CHECK (length > 0);

-- migration: 017_payment_index_on_partitions
CREATE INDEX payment_amount_idx ON payment (amount);

-- migration: 018_touch_trigger_on_category
CREATE TRIGGER category_touch BEFORE UPDATE ON category FOR EACH ROW EXECUTE FUNCTION last_updated();
UPDATE category SET name = name || '' WHERE category_id = 1;

-- migration: 019_group_concat_in_a_view
CREATE VIEW film_actor_names AS
  SELECT f.film_id, group_concat(a.last_name) AS actors FROM film f JOIN film_actor fa USING (film_id) JOIN actor a USING (actor_id) GROUP BY f.film_id;

-- migration: 020_rename_column_read_by_views
ALTER TABLE customer RENAME COLUMN email TO email_address;

-- migration: 021_detach_old_payments
ALTER TABLE payment DETACH PARTITION payment_p2022_01;

-- migration: 022_attach_them_back
ALTER TABLE payment ATTACH PARTITION payment_p2022_01 FOR VALUES FROM ('2022-01-01 00:00:00+00') TO ('2022-02-01 00:00:00+00');

-- migration: 023_attach_wrong_bounds (rejected: its rows fall outside the new bounds)
ALTER TABLE payment DETACH PARTITION payment_p2022_02;
ALTER TABLE payment ATTACH PARTITION payment_p2022_02 FOR VALUES FROM ('2030-01-01 00:00:00+00') TO ('2030-02-01 00:00:00+00');

-- migration: 024_store_in_stock_function_call
SELECT count(*) FROM film_in_stock(1, 1);

-- migration: 025_customer_active_flag_bool
ALTER TABLE customer ALTER COLUMN active TYPE boolean USING active = 1;

-- migration: 026_cast_that_fails (rejected: a postal code is not a number)
ALTER TABLE address ALTER COLUMN postal_code TYPE integer USING postal_code::integer;

-- migration: 027_new_domain_column
CREATE DOMAIN positive_money AS numeric(6,2) CHECK (VALUE >= 0);
ALTER TABLE film ADD COLUMN late_fee positive_money DEFAULT 1.00;

-- migration: 028_foreign_key_recreated (rejected: inventory 9 points at a missing store)
ALTER TABLE inventory DROP CONSTRAINT inventory_store_id_fkey;
ALTER TABLE inventory ADD CONSTRAINT inventory_store_id_fkey FOREIGN KEY (store_id) REFERENCES store (store_id);
