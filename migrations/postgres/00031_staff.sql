-- +goose Up
-- Staff (issue 18, DOMAIN.md): employees with their licences and dangerous-goods qualification, duties
-- and who holds them, leave with its approval, and the loading / unloading procedures. Days are
-- Asia/Shanghai dates written YYYYMMDD (0 = none); times Unix milliseconds (UTC).

-- Employees (basedata/employees). roles: a bit set of staff.Role* (1 driver, 2 escort, 4 loader,
-- 8 dispatcher); id_card is unique platform-wide (GB 11643, upper-case X); licence_classes a
-- comma-separated list (A1,B2…); qual_*: the dangerous-goods transport qualification (kind 1 driver,
-- 2 escort, 0 none); expires_on the earlier of licence_expiry and qual_expiry (0: neither), kept by the
-- service so that the expiry filter and the home counts are one indexed comparison; state 1 on duty,
-- 2 left.
CREATE TABLE employees (
    id              BIGSERIAL PRIMARY KEY,
    group_id        BIGINT NOT NULL REFERENCES org_groups(id),
    name            TEXT    NOT NULL,
    id_card         TEXT    NOT NULL UNIQUE,
    phone           TEXT    NOT NULL DEFAULT '',
    roles           INTEGER NOT NULL DEFAULT 0,
    licence_classes TEXT    NOT NULL DEFAULT '',
    licence_expiry  INTEGER NOT NULL DEFAULT 0,
    qual_no         TEXT    NOT NULL DEFAULT '',
    qual_kind       INTEGER NOT NULL DEFAULT 0,
    qual_expiry     INTEGER NOT NULL DEFAULT 0,
    expires_on      INTEGER NOT NULL DEFAULT 0,
    state           INTEGER NOT NULL DEFAULT 1,
    has_photo       BOOLEAN NOT NULL DEFAULT FALSE,
    remark          TEXT    NOT NULL DEFAULT '',
    created_by      BIGINT  NOT NULL DEFAULT 0,
    created_at      BIGINT  NOT NULL,
    updated_at      BIGINT  NOT NULL
);
CREATE INDEX employees_group ON employees (group_id, id);
CREATE INDEX employees_phone ON employees (phone);
CREATE INDEX employees_expiry ON employees (expires_on);

-- An employee's photo (JPEG, PNG or WebP, at most 2 MiB), kept in the database so that it is backed up
-- with the record and served only through the scoped endpoint.
CREATE TABLE employee_photos (
    employee_id BIGINT  PRIMARY KEY REFERENCES employees(id) ON DELETE CASCADE,
    mime        TEXT    NOT NULL,
    data        BYTEA    NOT NULL,
    updated_at  BIGINT  NOT NULL
);

-- Duties (basedata/jobDuty) and who holds them.
CREATE TABLE duties (
    id               BIGSERIAL PRIMARY KEY,
    group_id         BIGINT NOT NULL REFERENCES org_groups(id),
    name             TEXT    NOT NULL,
    description      TEXT    NOT NULL DEFAULT '',
    responsibilities TEXT    NOT NULL DEFAULT '',
    created_by       BIGINT  NOT NULL DEFAULT 0,
    created_at       BIGINT  NOT NULL,
    updated_at       BIGINT  NOT NULL,
    UNIQUE (group_id, name)
);
CREATE TABLE duty_holders (
    duty_id     BIGINT  NOT NULL REFERENCES duties(id) ON DELETE CASCADE,
    employee_id BIGINT  NOT NULL REFERENCES employees(id) ON DELETE CASCADE,
    PRIMARY KEY (duty_id, employee_id)
);
CREATE INDEX duty_holders_employee ON duty_holders (employee_id);

-- Leave (basedata/leaveRecord): from start_day to end_day inclusive; kind staff.Leave* (1 annual,
-- 2 sick, 3 personal, 4 other); state 1 pending, 2 approved, 3 rejected, with who decided, when and why.
CREATE TABLE leave_records (
    id          BIGSERIAL PRIMARY KEY,
    group_id    BIGINT NOT NULL REFERENCES org_groups(id),
    employee_id BIGINT  NOT NULL REFERENCES employees(id) ON DELETE CASCADE,
    kind        INTEGER NOT NULL,
    start_day   INTEGER NOT NULL,
    end_day     INTEGER NOT NULL,
    reason      TEXT    NOT NULL DEFAULT '',
    state       INTEGER NOT NULL DEFAULT 1,
    decided_by  BIGINT  NOT NULL DEFAULT 0,
    decided_at  BIGINT  NOT NULL DEFAULT 0,
    comment     TEXT    NOT NULL DEFAULT '',
    created_by  BIGINT  NOT NULL DEFAULT 0,
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL
);
CREATE INDEX leave_records_employee ON leave_records (employee_id, start_day);
CREATE INDEX leave_records_group ON leave_records (group_id, start_day);

-- Operating procedures (basedata/operateFlow): kind 1 loading, 2 unloading; ordered steps, each signed
-- by a duty (0: nobody named); the stations and products a procedure applies to.
CREATE TABLE op_flows (
    id         BIGSERIAL PRIMARY KEY,
    group_id   BIGINT NOT NULL REFERENCES org_groups(id),
    name       TEXT    NOT NULL,
    kind       INTEGER NOT NULL,
    remark     TEXT    NOT NULL DEFAULT '',
    created_by BIGINT  NOT NULL DEFAULT 0,
    created_at BIGINT  NOT NULL,
    updated_at BIGINT  NOT NULL
);
CREATE INDEX op_flows_group ON op_flows (group_id, id);
CREATE TABLE op_flow_steps (
    flow_id BIGINT  NOT NULL REFERENCES op_flows(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    text    TEXT    NOT NULL,
    duty_id BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (flow_id, seq)
);
CREATE INDEX op_flow_steps_duty ON op_flow_steps (duty_id);
CREATE TABLE op_flow_stations (
    flow_id    BIGINT  NOT NULL REFERENCES op_flows(id) ON DELETE CASCADE,
    station_id BIGINT  NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
    PRIMARY KEY (flow_id, station_id)
);
CREATE TABLE op_flow_products (
    flow_id    BIGINT  NOT NULL REFERENCES op_flows(id) ON DELETE CASCADE,
    product_id BIGINT  NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    PRIMARY KEY (flow_id, product_id)
);

-- +goose Down
DROP TABLE op_flow_products;
DROP TABLE op_flow_stations;
DROP TABLE op_flow_steps;
DROP TABLE op_flows;
DROP TABLE leave_records;
DROP TABLE duty_holders;
DROP TABLE duties;
DROP TABLE employee_photos;
DROP TABLE employees;
