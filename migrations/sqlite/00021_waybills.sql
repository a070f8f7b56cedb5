-- +goose Up
-- Waybills and the transport process (issue 15, DOMAIN.md §1–2): products, customers and their cars,
-- sales companies and their carriers, code sequences, waybills with compartments and destinations,
-- the steps each waybill took, transport plans, load records with seal numbers, differences.
-- Times are Unix milliseconds (UTC), 0 = not yet; volumes litres; temperatures °C; densities kg/m³.

-- A sales company is an org group flagged sales (groupInfo/addSalesCompany); the carriers it works
-- with are bound in sales_trans (baseSalesTrans/bindSalesAndTrans).
ALTER TABLE org_groups ADD COLUMN sales BOOLEAN NOT NULL DEFAULT FALSE;
CREATE TABLE sales_trans (
    sales_group_id INTEGER NOT NULL REFERENCES org_groups(id) ON DELETE CASCADE,
    trans_group_id INTEGER NOT NULL REFERENCES org_groups(id) ON DELETE CASCADE,
    created_by     INTEGER NOT NULL DEFAULT 0,
    created_at     INTEGER NOT NULL,
    PRIMARY KEY (sales_group_id, trans_group_id)
);
CREATE INDEX sales_trans_trans ON sales_trans (trans_group_id);

-- Code sequences (baseCode/getNextCodeByCode): the last number handed out per prefix. Numbers are
-- never reused: a number is taken by an UPDATE … RETURNING in its own statement.
CREATE TABLE code_sequences (
    prefix TEXT    PRIMARY KEY,
    last   INTEGER NOT NULL
);

-- Products (transProduct). product: the tank product code (tank.Product*, the compartments' and the
-- cars' fuel type); family: tank.Family for V20; density20 the default density at 20 °C; k0/k1
-- override the family's constants when both are set.
CREATE TABLE products (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id   INTEGER NOT NULL REFERENCES org_groups(id),
    code       TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    grade      TEXT    NOT NULL DEFAULT '',
    product    INTEGER NOT NULL DEFAULT 0,
    family     INTEGER NOT NULL DEFAULT 0,
    density20  REAL    NOT NULL DEFAULT 0,
    k0         REAL,
    k1         REAL,
    remark     TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    updated_by INTEGER NOT NULL DEFAULT 0,
    UNIQUE (group_id, code)
);

-- Customers (access/customer) and the stations they own; their own cars (access/customerCar).
CREATE TABLE customers (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id   INTEGER NOT NULL REFERENCES org_groups(id),
    code       TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    contact    TEXT    NOT NULL DEFAULT '',
    phone      TEXT    NOT NULL DEFAULT '',
    address    TEXT    NOT NULL DEFAULT '',
    remark     TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    updated_by INTEGER NOT NULL DEFAULT 0,
    UNIQUE (group_id, code)
);
CREATE TABLE customer_stations (
    customer_id INTEGER NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    station_id  INTEGER NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
    PRIMARY KEY (customer_id, station_id)
);
CREATE INDEX customer_stations_station ON customer_stations (station_id);
CREATE TABLE customer_cars (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id  INTEGER NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    plate        TEXT    NOT NULL,
    car_type     TEXT    NOT NULL DEFAULT '',
    capacity_l   INTEGER NOT NULL DEFAULT 0,
    compartments INTEGER NOT NULL DEFAULT 1,
    driver_name  TEXT    NOT NULL DEFAULT '',
    driver_phone TEXT    NOT NULL DEFAULT '',
    remark       TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    updated_by   INTEGER NOT NULL DEFAULT 0,
    UNIQUE (customer_id, plate)
);

-- Transport plans (a day's plan per customer or depot) and their car items.
CREATE TABLE transport_plans (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id    INTEGER NOT NULL REFERENCES org_groups(id),
    no          TEXT    NOT NULL UNIQUE,
    plan_date   TEXT    NOT NULL,                      -- YYYY-MM-DD, Asia/Shanghai
    depot_id    INTEGER NOT NULL REFERENCES stations(id),
    customer_id INTEGER REFERENCES customers(id),
    title       TEXT    NOT NULL DEFAULT '',
    remark      TEXT    NOT NULL DEFAULT '',
    created_by  INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE INDEX transport_plans_group_date ON transport_plans (group_id, plan_date);
CREATE TABLE transport_plan_items (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    plan_id    INTEGER NOT NULL REFERENCES transport_plans(id) ON DELETE CASCADE,
    car_id     INTEGER NOT NULL REFERENCES cars(id),
    station_id INTEGER NOT NULL REFERENCES stations(id),  -- destination
    product_id INTEGER NOT NULL REFERENCES products(id),
    planned_l  REAL    NOT NULL DEFAULT 0,
    waybill_id INTEGER,                                   -- the waybill made from this item (waybills.id)
    remark     TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX transport_plan_items_plan ON transport_plan_items (plan_id);
CREATE INDEX transport_plan_items_waybill ON transport_plan_items (waybill_id);

-- Waybills. group_id: the carrier's group (the car's group when created); sales_group_id: the sales
-- company that sold the load (NULL: none). state: waybill.State; flagged: an opening on the way was
-- seen; left_unsealed: the car left the depot before SEALED. The *_at columns are when each step was
-- reached (0: not yet). Figures are filled as they become known: shipped_v20 by the load record,
-- received_v20 (with received_source: waybill.Received*) at RECEIVED, the loss at CLOSED or
-- DIFF_FLAGGED; loaded_km is the distance driven loaded (depot exit → last destination).
CREATE TABLE waybills (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id         INTEGER NOT NULL REFERENCES org_groups(id),
    sales_group_id   INTEGER REFERENCES org_groups(id),
    no               TEXT    NOT NULL UNIQUE,
    plan_id          INTEGER REFERENCES transport_plans(id) ON DELETE SET NULL,
    car_id           INTEGER NOT NULL REFERENCES cars(id),
    customer_id      INTEGER REFERENCES customers(id),
    depot_id         INTEGER NOT NULL REFERENCES stations(id),
    driver_name      TEXT    NOT NULL DEFAULT '',
    driver_phone     TEXT    NOT NULL DEFAULT '',
    escort_name      TEXT    NOT NULL DEFAULT '',
    escort_phone     TEXT    NOT NULL DEFAULT '',
    planned_load_at  INTEGER NOT NULL DEFAULT 0,
    planned_arrive_at INTEGER NOT NULL DEFAULT 0,
    state            INTEGER NOT NULL,
    state_at         INTEGER NOT NULL,
    flagged          BOOLEAN NOT NULL DEFAULT FALSE,
    left_unsealed    BOOLEAN NOT NULL DEFAULT FALSE,
    dispatched_at    INTEGER NOT NULL DEFAULT 0,
    load_start_at    INTEGER NOT NULL DEFAULT 0,
    loaded_at        INTEGER NOT NULL DEFAULT 0,
    sealed_at        INTEGER NOT NULL DEFAULT 0,
    depart_at        INTEGER NOT NULL DEFAULT 0,
    arrive_at        INTEGER NOT NULL DEFAULT 0,
    unsealed_at      INTEGER NOT NULL DEFAULT 0,
    unload_start_at  INTEGER NOT NULL DEFAULT 0,
    received_at      INTEGER NOT NULL DEFAULT 0,
    closed_at        INTEGER NOT NULL DEFAULT 0,
    shipped_v20      REAL    NOT NULL DEFAULT 0,
    shipped_mass_t   REAL    NOT NULL DEFAULT 0,
    received_v20     REAL    NOT NULL DEFAULT 0,
    received_source  INTEGER NOT NULL DEFAULT 0,
    loss_l           REAL    NOT NULL DEFAULT 0,
    loss_rate_pct    REAL    NOT NULL DEFAULT 0,
    allowed_pct      REAL    NOT NULL DEFAULT 0,
    loaded_km        REAL    NOT NULL DEFAULT 0,
    remark           TEXT    NOT NULL DEFAULT '',
    created_by       INTEGER NOT NULL DEFAULT 0,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);
CREATE INDEX waybills_group ON waybills (group_id, id);
CREATE INDEX waybills_sales ON waybills (sales_group_id, id);
CREATE INDEX waybills_car_state ON waybills (car_id, state);
CREATE INDEX waybills_state ON waybills (state, id);
CREATE INDEX waybills_created ON waybills (created_at);
CREATE INDEX waybills_plan ON waybills (plan_id);

-- A waybill's destinations in the order they are visited; state: waybill.Dest* (pending, arrived,
-- unsealed, unloading, received). received_v20 with received_source per destination.
CREATE TABLE waybill_destinations (
    waybill_id      INTEGER NOT NULL REFERENCES waybills(id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,
    station_id      INTEGER NOT NULL REFERENCES stations(id),
    state           INTEGER NOT NULL DEFAULT 0,
    arrive_at       INTEGER NOT NULL DEFAULT 0,
    unsealed_at     INTEGER NOT NULL DEFAULT 0,
    unload_start_at INTEGER NOT NULL DEFAULT 0,
    unload_end_at   INTEGER NOT NULL DEFAULT 0,
    received_at     INTEGER NOT NULL DEFAULT 0,
    received_v20    REAL    NOT NULL DEFAULT 0,
    received_source INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (waybill_id, seq)
);
CREATE INDEX waybill_destinations_station ON waybill_destinations (station_id);

-- A waybill's compartments: product and planned volume, and the destination (seq) it is unloaded at.
CREATE TABLE waybill_compartments (
    waybill_id INTEGER NOT NULL REFERENCES waybills(id) ON DELETE CASCADE,
    no         INTEGER NOT NULL CHECK (no BETWEEN 1 AND 8),
    product_id INTEGER NOT NULL REFERENCES products(id),
    planned_l  REAL    NOT NULL DEFAULT 0,
    dest_seq   INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (waybill_id, no)
);

-- Every step a waybill took: from → to (equal when the evidence only marked it, e.g. an opening on
-- the way), the evidence (waybill.Evidence; 0 for a correction), its cause (waybill.Cause*: report,
-- rule, user, record), when it happened (t, the report's time) and was recorded, where, and why.
CREATE TABLE waybill_steps (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    waybill_id  INTEGER NOT NULL REFERENCES waybills(id) ON DELETE CASCADE,
    from_state  INTEGER NOT NULL,
    to_state    INTEGER NOT NULL,
    evidence    INTEGER NOT NULL DEFAULT 0,
    cause       INTEGER NOT NULL,
    user_id     INTEGER NOT NULL DEFAULT 0,
    t           INTEGER NOT NULL,
    recorded_at INTEGER NOT NULL,
    dest_seq    INTEGER NOT NULL DEFAULT 0,
    compartment INTEGER NOT NULL DEFAULT 0,
    station_id  INTEGER NOT NULL DEFAULT 0,
    lat         INTEGER NOT NULL DEFAULT 0,
    lon         INTEGER NOT NULL DEFAULT 0,
    volume_l    REAL    NOT NULL DEFAULT 0,
    reason      TEXT    NOT NULL DEFAULT '',
    detail      TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX waybill_steps_waybill ON waybill_steps (waybill_id, id);
CREATE INDEX waybill_steps_t ON waybill_steps (t);

-- Load records (loadRecord): what the depot shipped per compartment, from a loading ticket entered,
-- imported (xlsx) or sent by the depot's system (source: waybill.Load*), with the lead-seal numbers.
CREATE TABLE load_records (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    waybill_id INTEGER NOT NULL UNIQUE REFERENCES waybills(id) ON DELETE CASCADE,
    group_id   INTEGER NOT NULL REFERENCES org_groups(id),
    car_id     INTEGER NOT NULL REFERENCES cars(id),
    depot_id   INTEGER NOT NULL REFERENCES stations(id),
    ticket_no  TEXT    NOT NULL DEFAULT '',
    loaded_at  INTEGER NOT NULL,
    source     INTEGER NOT NULL,
    remark     TEXT    NOT NULL DEFAULT '',
    created_by INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX load_records_group_time ON load_records (group_id, loaded_at);
CREATE INDEX load_records_car_time ON load_records (car_id, loaded_at);
CREATE TABLE load_record_items (
    record_id   INTEGER NOT NULL REFERENCES load_records(id) ON DELETE CASCADE,
    compartment INTEGER NOT NULL CHECK (compartment BETWEEN 1 AND 8),
    product_id  INTEGER NOT NULL REFERENCES products(id),
    vt_l        REAL    NOT NULL,
    temp_c      REAL    NOT NULL,
    density20   REAL    NOT NULL,
    vcf20       REAL    NOT NULL,
    v20_l       REAL    NOT NULL,
    mass_t      REAL    NOT NULL,
    seal_no     TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (record_id, compartment)
);

-- Seal checks at unsealing: the number found on each compartment's seal against the load record's.
CREATE TABLE seal_checks (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    waybill_id  INTEGER NOT NULL REFERENCES waybills(id) ON DELETE CASCADE,
    compartment INTEGER NOT NULL,
    expected_no TEXT    NOT NULL,
    found_no    TEXT    NOT NULL,
    ok          BOOLEAN NOT NULL,
    checked_by  INTEGER NOT NULL DEFAULT 0,
    checked_at  INTEGER NOT NULL
);
CREATE INDEX seal_checks_waybill ON seal_checks (waybill_id);

-- Differences (bizDiffRecordVXE, getDiffDataStatusPage): a trip over its loss allowance, an opening on
-- the way, a seal that did not match, a departure unsealed (kind: waybill.Diff*), with the evidence
-- (JSON) and its review (status 0 open, 1 reviewed).
CREATE TABLE diff_records (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    waybill_id    INTEGER NOT NULL REFERENCES waybills(id) ON DELETE CASCADE,
    group_id      INTEGER NOT NULL REFERENCES org_groups(id),
    car_id        INTEGER NOT NULL,
    kind          INTEGER NOT NULL,
    t             INTEGER NOT NULL,
    loss_l        REAL    NOT NULL DEFAULT 0,
    loss_rate_pct REAL    NOT NULL DEFAULT 0,
    allowed_pct   REAL    NOT NULL DEFAULT 0,
    evidence      TEXT    NOT NULL DEFAULT '',
    status        INTEGER NOT NULL DEFAULT 0,
    reviewed_by   INTEGER NOT NULL DEFAULT 0,
    reviewed_at   INTEGER NOT NULL DEFAULT 0,
    review_reason TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX diff_records_group_time ON diff_records (group_id, t);
CREATE INDEX diff_records_waybill ON diff_records (waybill_id);

-- +goose Down
DROP TABLE diff_records;
DROP TABLE seal_checks;
DROP TABLE load_record_items;
DROP TABLE load_records;
DROP TABLE waybill_steps;
DROP TABLE waybill_compartments;
DROP TABLE waybill_destinations;
DROP TABLE waybills;
DROP TABLE transport_plan_items;
DROP TABLE transport_plans;
DROP TABLE customer_cars;
DROP TABLE customer_stations;
DROP TABLE customers;
DROP TABLE products;
DROP TABLE code_sequences;
DROP TABLE sales_trans;
ALTER TABLE org_groups DROP COLUMN sales;
