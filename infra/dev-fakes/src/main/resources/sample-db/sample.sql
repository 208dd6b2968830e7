-- Tablewright sample database: a small inventory-and-orders business.
--
-- Four schemas: core (users, warehouses), inventory (items, stock levels), sales (customers, orders,
-- order lines) and analytics (views). Every row is computed from generate_series arithmetic, so the
-- data is the same on every load (no random(), no now()).
--
-- What it exercises: foreign keys across schemas, a self-reference (users.reports_to), a table joined
-- twice from one table (orders.created_by and orders.approved_by -> core.users), a multi-column key
-- (order_lines (warehouse_id, item_id) -> stock_levels), enums, timestamps with and without time zone,
-- dates, numerics, nullable columns, text with quotes, and a view that takes long to scan
-- (analytics.calendar_minutes) for statement-timeout tests.
--
-- SampleDatabase runs this whole file in one transaction, under an advisory lock.

DROP SCHEMA IF EXISTS analytics CASCADE;
DROP SCHEMA IF EXISTS sales CASCADE;
DROP SCHEMA IF EXISTS inventory CASCADE;
DROP SCHEMA IF EXISTS core CASCADE;

CREATE SCHEMA core;
CREATE SCHEMA inventory;
CREATE SCHEMA sales;
CREATE SCHEMA analytics;

-- ---------------------------------------------------------------- core

CREATE TYPE core.user_role AS ENUM ('admin', 'manager', 'clerk', 'viewer');

CREATE TABLE core.users (
    id            bigint PRIMARY KEY,
    email         text NOT NULL UNIQUE,
    first_name    text NOT NULL,
    last_name     text NOT NULL,
    role          core.user_role NOT NULL DEFAULT 'clerk',
    active        boolean NOT NULL DEFAULT true,
    reports_to    bigint REFERENCES core.users (id),
    created_at    timestamptz NOT NULL,
    last_login_at timestamptz
);
COMMENT ON TABLE core.users IS 'People who create and approve orders and manage warehouses';

CREATE TABLE core.warehouses (
    id          integer PRIMARY KEY,
    code        varchar(8) NOT NULL UNIQUE,
    name        text NOT NULL,
    city        text NOT NULL,
    country     char(2) NOT NULL,
    manager_id  bigint REFERENCES core.users (id),
    opened_on   date NOT NULL,
    capacity_m3 numeric(10, 2)
);

INSERT INTO core.users (id, email, first_name, last_name, role, active, reports_to, created_at, last_login_at)
SELECT i,
       lower(f.first_name) || '.' || lower(replace(l.last_name, '''', '')) || i || '@example.test',
       f.first_name,
       l.last_name,
       (CASE WHEN i = 1 THEN 'admin' WHEN i <= 8 THEN 'manager' WHEN i % 9 = 0 THEN 'viewer' ELSE 'clerk' END)::core.user_role,
       i % 13 <> 0,
       CASE WHEN i = 1 THEN NULL WHEN i <= 8 THEN 1 ELSE 2 + (i % 7) END,
       timestamptz '2023-01-02 09:00:00+00' + (i * interval '3 days 7 hours'),
       CASE WHEN i % 5 = 0 THEN NULL ELSE timestamptz '2025-03-01 08:30:00+00' + (i * interval '11 hours 13 minutes') END
FROM generate_series(1, 40) AS i
CROSS JOIN LATERAL (SELECT (ARRAY['Ada', 'Bram', 'Chloe', 'Dmitri', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas',
                                  'Kofi', 'Lena', 'Mateo', 'Nadia', 'Olu', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tara'])[1 + (i - 1) % 20]
                           AS first_name) AS f
CROSS JOIN LATERAL (SELECT (ARRAY['Lovelace', 'O''Brien', 'Novak', 'Ivanov', 'García', 'Haddad', 'Hopper', 'Tanaka',
                                  'Silva', 'Berg', 'Mensah', 'Schmidt', 'Rossi', 'Kowalska', 'Adeyemi', 'Patel',
                                  'Murphy', 'Costa', 'Larsen', 'Singh', 'Dubois', 'Kim', 'Nakamura'])[1 + (i * 7) % 23]
                           AS last_name) AS l;

INSERT INTO core.warehouses (id, code, name, city, country, manager_id, opened_on, capacity_m3) VALUES
    (1, 'BER1', 'Berlin Central', 'Berlin', 'DE', 2, date '2015-04-01', 12500.00),
    (2, 'ROT1', 'Rotterdam Port', 'Rotterdam', 'NL', 3, date '2016-09-15', 30000.50),
    (3, 'LYO1', 'Lyon South', 'Lyon', 'FR', 4, date '2018-01-10', 8200.00),
    (4, 'MIL1', 'Milano Nord', 'Milan', 'IT', NULL, date '2019-06-03', NULL),
    (5, 'WAW1', 'Warsaw East', 'Warsaw', 'PL', 5, date '2021-11-22', 9650.75),
    (6, 'DUB1', 'Dublin Docks', 'Dublin', 'IE', 6, date '2023-02-28', 4100.00);

-- ---------------------------------------------------------------- inventory

CREATE TYPE inventory.item_category AS ENUM ('hardware', 'electrical', 'plumbing', 'garden', 'tools');

CREATE TABLE inventory.items (
    id           integer PRIMARY KEY,
    sku          text NOT NULL UNIQUE,
    name         text NOT NULL,
    category     inventory.item_category NOT NULL,
    unit_price   numeric(12, 2) NOT NULL CHECK (unit_price >= 0),
    weight_kg    numeric(8, 3),
    discontinued boolean NOT NULL DEFAULT false,
    created_at   timestamp NOT NULL
);

CREATE TABLE inventory.stock_levels (
    warehouse_id    integer NOT NULL REFERENCES core.warehouses (id),
    item_id         integer NOT NULL REFERENCES inventory.items (id),
    quantity        integer NOT NULL DEFAULT 0,
    reorder_level   integer,
    last_counted_at timestamp,
    PRIMARY KEY (warehouse_id, item_id)
);

INSERT INTO inventory.items (id, sku, name, category, unit_price, weight_kg, discontinued, created_at)
SELECT i,
       'SKU-' || lpad(i::text, 5, '0'),
       (ARRAY['Steel', 'Brass', 'Compact', 'Heavy-duty', 'Cordless', 'Galvanised', 'Mini', 'Pro', 'Outdoor', 'Classic'])[1 + i % 10]
           || ' ' ||
       (ARRAY['hinge', 'drill', 'pipe fitting', 'hose', 'cable reel', 'spanner', 'valve', 'rake', 'switch', 'saw',
              'bracket', 'lamp', 'tap', 'shears', 'screwdriver', 'socket', 'trowel', 'clamp', 'junction box', 'hammer'])[1 + (i / 10) % 20],
       (ARRAY['hardware', 'electrical', 'plumbing', 'garden', 'tools'])[1 + i % 5]::inventory.item_category,
       round(2.50 + ((i * 37) % 480) + ((i * 13) % 100) / 100.0, 2),
       CASE WHEN i % 9 = 0 THEN NULL ELSE round(0.05 + ((i * 29) % 2500) / 100.0, 3) END,
       i % 17 = 0,
       timestamp '2022-06-01 10:00:00' + (i * interval '1 day 3 hours')
FROM generate_series(1, 200) AS i;

INSERT INTO inventory.stock_levels (warehouse_id, item_id, quantity, reorder_level, last_counted_at)
SELECT w, i,
       (w * 31 + i * 17) % 500,
       CASE WHEN (w + i) % 11 = 0 THEN NULL ELSE 20 + i % 30 END,
       CASE WHEN (w * i) % 23 = 0 THEN NULL ELSE timestamp '2025-01-01 06:00:00' + ((w * i) % 300) * interval '1 day' END
FROM generate_series(1, 6) AS w, generate_series(1, 200) AS i;

-- ---------------------------------------------------------------- sales

CREATE TYPE sales.order_status AS ENUM ('draft', 'open', 'approved', 'shipped', 'cancelled');

CREATE TABLE sales.customers (
    id         integer PRIMARY KEY,
    name       text NOT NULL,
    email      text,
    country    char(2) NOT NULL,
    vip        boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL
);

CREATE TABLE sales.orders (
    id           bigint PRIMARY KEY,
    order_number text NOT NULL UNIQUE,
    customer_id  integer NOT NULL REFERENCES sales.customers (id),
    warehouse_id integer NOT NULL REFERENCES core.warehouses (id),
    status       sales.order_status NOT NULL DEFAULT 'draft',
    created_by   bigint NOT NULL REFERENCES core.users (id),
    approved_by  bigint REFERENCES core.users (id),
    created_at   timestamptz NOT NULL,
    approved_at  timestamptz,
    due_date     date,
    total_amount numeric(14, 2) NOT NULL DEFAULT 0,
    notes        text
);
CREATE INDEX orders_created_at_idx ON sales.orders (created_at);
CREATE INDEX orders_customer_idx ON sales.orders (customer_id);

CREATE TABLE sales.order_lines (
    order_id     bigint NOT NULL REFERENCES sales.orders (id),
    line_no      smallint NOT NULL,
    item_id      integer NOT NULL,
    warehouse_id integer NOT NULL,
    quantity     integer NOT NULL CHECK (quantity > 0),
    unit_price   numeric(12, 2) NOT NULL,
    discount_pct numeric(5, 2),
    PRIMARY KEY (order_id, line_no),
    CONSTRAINT order_lines_stock_fkey FOREIGN KEY (warehouse_id, item_id)
        REFERENCES inventory.stock_levels (warehouse_id, item_id)
);

INSERT INTO sales.customers (id, name, email, country, vip, created_at)
SELECT i,
       (ARRAY['Acme', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Hooli', 'Vandelay', 'Soylent', 'Tyrell'])[1 + i % 10]
           || ' ' || (ARRAY['Ltd', 'GmbH', 'Inc', 'SA', 'BV', 'Oy'])[1 + (i / 10) % 6] || ' ' || i,
       CASE WHEN i % 7 = 0 THEN NULL ELSE 'buyer' || i || '@customer.example' END,
       (ARRAY['DE', 'NL', 'FR', 'IT', 'PL', 'IE', 'ES', 'SE'])[1 + (i * 3) % 8],
       i % 19 = 0,
       timestamptz '2023-03-01 12:00:00+00' + (i * interval '1 day 5 hours')
FROM generate_series(1, 300) AS i;

INSERT INTO sales.orders (id, order_number, customer_id, warehouse_id, status, created_by, approved_by,
                          created_at, approved_at, due_date, notes)
SELECT i,
       'SO-' || lpad(i::text, 6, '0'),
       1 + (i * 7) % 300,
       1 + i % 6,
       s.status,
       9 + (i * 11) % 32,
       CASE WHEN s.status IN ('approved', 'shipped') THEN 2 + (i * 13) % 7 END,
       timestamptz '2024-01-01 08:00:00+00' + (i * interval '5 hours 17 minutes'),
       CASE WHEN s.status IN ('approved', 'shipped')
            THEN timestamptz '2024-01-01 08:00:00+00' + (i * interval '5 hours 17 minutes') + interval '1 day 2 hours' END,
       CASE WHEN i % 13 = 0 THEN NULL
            ELSE (timestamptz '2024-01-01 08:00:00+00' + (i * interval '5 hours 17 minutes') + interval '14 days')::date END,
       CASE WHEN i % 50 = 0 THEN 'Customer''s request: leave at dock 3; "fragile" -- handle with care'
            WHEN i % 23 = 0 THEN 'Call before delivery' END
FROM generate_series(1, 1500) AS i
CROSS JOIN LATERAL (SELECT (CASE i % 10 WHEN 0 THEN 'draft' WHEN 1 THEN 'open' WHEN 2 THEN 'open' WHEN 3 THEN 'open'
                                        WHEN 4 THEN 'approved' WHEN 5 THEN 'approved' WHEN 9 THEN 'cancelled'
                                        ELSE 'shipped' END)::sales.order_status AS status) AS s;

INSERT INTO sales.order_lines (order_id, line_no, item_id, warehouse_id, quantity, unit_price, discount_pct)
SELECT o.id, l, it.id, o.warehouse_id,
       1 + (o.id + l * 3) % 20,
       it.unit_price,
       CASE WHEN (o.id + l) % 4 = 0 THEN (CASE WHEN o.id % 3 = 0 THEN 10.00 ELSE 5.00 END) END
FROM sales.orders AS o
CROSS JOIN LATERAL generate_series(1, 1 + (o.id % 5)::int) AS l
JOIN inventory.items AS it ON it.id = 1 + (o.id * 7 + l * 13) % 200;

UPDATE sales.orders AS o
SET total_amount = t.total
FROM (SELECT order_id, sum(round(quantity * unit_price * (1 - coalesce(discount_pct, 0) / 100), 2)) AS total
      FROM sales.order_lines GROUP BY order_id) AS t
WHERE t.order_id = o.id;

-- ---------------------------------------------------------------- analytics

CREATE VIEW analytics.monthly_sales AS
SELECT date_trunc('month', o.created_at AT TIME ZONE 'UTC')::date AS month,
       o.warehouse_id,
       count(*)                                                  AS orders,
       sum(o.total_amount)                                       AS revenue
FROM sales.orders AS o
WHERE o.status IN ('approved', 'shipped')
GROUP BY 1, 2;

-- A reporting calendar of every minute of the century: 52 million rows. Filtering or sorting it scans for
-- a long time; the preview's statement timeout must cut such a query.
CREATE VIEW analytics.calendar_minutes AS
SELECT m.minute,
       extract(isodow FROM m.minute)::int AS iso_weekday,
       extract(hour FROM m.minute)::int   AS hour_of_day
FROM (SELECT generate_series(timestamp '2000-01-01 00:00', timestamp '2099-12-31 23:59', interval '1 minute') AS minute) AS m;

ANALYZE core.users, core.warehouses, inventory.items, inventory.stock_levels,
        sales.customers, sales.orders, sales.order_lines;
