-- Evaluation schema for text-to-SQL: a small online shop with 10 tables and foreign keys.
-- Data is deterministic (no random()); dates of orders are relative to now() so that
-- "last 30 days" questions have answers whenever the benchmark runs.
CREATE TYPE order_status AS ENUM ('pending', 'paid', 'shipped', 'delivered', 'cancelled');
CREATE TYPE payment_method AS ENUM ('card', 'paypal', 'transfer');

CREATE TABLE countries (id int PRIMARY KEY, name text NOT NULL, code text NOT NULL);
CREATE TABLE categories (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE suppliers (id int PRIMARY KEY, name text NOT NULL, country_id int NOT NULL REFERENCES countries(id));
CREATE TABLE customers (
  id int PRIMARY KEY, name text NOT NULL, email text NOT NULL, city text NOT NULL,
  country_id int NOT NULL REFERENCES countries(id), is_vip boolean NOT NULL, signup_date date NOT NULL
);
CREATE TABLE employees (id int PRIMARY KEY, name text NOT NULL, title text NOT NULL, salary numeric(10,2) NOT NULL, hire_date date NOT NULL);
CREATE TABLE products (
  id int PRIMARY KEY, name text NOT NULL, category_id int NOT NULL REFERENCES categories(id),
  supplier_id int NOT NULL REFERENCES suppliers(id), price numeric(10,2) NOT NULL, stock int NOT NULL, is_discontinued boolean NOT NULL
);
CREATE TABLE orders (
  id int PRIMARY KEY, customer_id int NOT NULL REFERENCES customers(id), employee_id int REFERENCES employees(id),
  status order_status NOT NULL, total numeric(10,2) NOT NULL, ordered_at timestamptz NOT NULL
);
CREATE TABLE order_items (
  id int PRIMARY KEY, order_id int NOT NULL REFERENCES orders(id), product_id int NOT NULL REFERENCES products(id),
  quantity int NOT NULL, unit_price numeric(10,2) NOT NULL
);
CREATE TABLE payments (id int PRIMARY KEY, order_id int NOT NULL REFERENCES orders(id), amount numeric(10,2) NOT NULL, method payment_method NOT NULL, paid_at timestamptz NOT NULL);
CREATE TABLE reviews (id int PRIMARY KEY, product_id int NOT NULL REFERENCES products(id), customer_id int NOT NULL REFERENCES customers(id), rating int NOT NULL, created_at timestamptz NOT NULL);

INSERT INTO countries VALUES (1, 'Germany', 'DE'), (2, 'France', 'FR'), (3, 'Spain', 'ES'), (4, 'Italy', 'IT'), (5, 'Poland', 'PL');
INSERT INTO categories VALUES (1, 'Books'), (2, 'Electronics'), (3, 'Garden'), (4, 'Toys'), (5, 'Kitchen'), (6, 'Sports');
INSERT INTO suppliers VALUES (1, 'Acme', 1), (2, 'Globex', 2), (3, 'Initech', 3), (4, 'Umbrella', 1), (5, 'Hooli', 4), (6, 'Vandelay', 5);

INSERT INTO customers
SELECT i, (ARRAY['Anna','Ben','Clara','David','Eva','Felix','Greta','Hugo','Ines','Jonas'])[1 + i % 10] || ' ' || (ARRAY['Adler','Berg','Costa','Dubois','Esposito','Fischer','Garcia','Hoffmann'])[1 + (i * 7) % 8],
  'customer' || i || '@example.com',
  (ARRAY['Berlin','Paris','Madrid','Rome','Warsaw','Munich','Lyon','Barcelona'])[1 + i % 8],
  1 + i % 5, i % 7 = 0, date '2022-01-01' + (i * 13) % 1000
FROM generate_series(1, 120) AS i;

INSERT INTO employees
SELECT i, (ARRAY['Karl','Lena','Mia','Noah','Olga','Paul','Rita','Sven','Tara','Uwe','Vera','Willi'])[i],
  (ARRAY['Sales Rep','Sales Rep','Manager','Support','Sales Rep','Support'])[1 + i % 6],
  40000 + i * 3500, date '2018-03-01' + i * 211
FROM generate_series(1, 12) AS i;

INSERT INTO products
SELECT i, (ARRAY['Lamp','Desk','Chair','Novel','Guide','Phone','Cable','Shovel','Hose','Puzzle','Kite','Pan','Knife','Ball','Racket'])[1 + i % 15] || ' ' || i,
  1 + i % 6, 1 + (i * 5) % 6, round((5 + (i * 37) % 400 + (i % 100) / 100.0)::numeric, 2), (i * 17) % 120, i % 11 = 0
FROM generate_series(1, 60) AS i;

INSERT INTO orders
SELECT i, 1 + (i * 7) % 120, CASE WHEN i % 9 = 0 THEN NULL ELSE 1 + i % 12 END,
  (ARRAY['pending','paid','shipped','delivered','delivered','delivered','cancelled'])[1 + i % 7]::order_status,
  0, date_trunc('day', now()) - ((i * 37) % 1000) * interval '1 day' + (i % 24) * interval '1 hour'
FROM generate_series(1, 800) AS i;

INSERT INTO order_items
SELECT i, 1 + (i - 1) / 3, 1 + (i * 11) % 60, 1 + i % 4, 0
FROM generate_series(1, 2400) AS i;
UPDATE order_items oi SET unit_price = p.price FROM products p WHERE p.id = oi.product_id;
UPDATE orders o SET total = s.total FROM (SELECT order_id, sum(quantity * unit_price) AS total FROM order_items GROUP BY order_id) s WHERE s.order_id = o.id;

INSERT INTO payments
SELECT o.id, o.id, o.total, (ARRAY['card','paypal','transfer','card'])[1 + o.id % 4]::payment_method, o.ordered_at + interval '2 hours'
FROM orders o WHERE o.status <> 'pending' AND o.status <> 'cancelled';

INSERT INTO reviews
SELECT i, 1 + (i * 13) % 60, 1 + (i * 29) % 120, 1 + (i * 3) % 5, date_trunc('day', now()) - ((i * 17) % 700) * interval '1 day'
FROM generate_series(1, 400) AS i;
ANALYZE;
