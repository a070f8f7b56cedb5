-- +goose Up
-- The monthly trip rollup (D55): stat_trip_daily's rows added up per car and month (YYYYMM), kept by
-- stats.Refresh together with the daily rows (the car's month is re-added from its days after each
-- refresh) and by stats.Rebuild; never edited. Sum reads whole months here and the edge days from the
-- daily table, so a year is about twelve rows per car and product instead of 365.
CREATE TABLE stat_trip_monthly (
    month             INTEGER NOT NULL,
    car_id            BIGINT NOT NULL,
    group_id          BIGINT NOT NULL,
    sales_group_id    BIGINT NOT NULL DEFAULT 0,
    product_id        BIGINT NOT NULL DEFAULT 0,
    trips             INTEGER NOT NULL DEFAULT 0,
    shipped_vt_l      DOUBLE PRECISION NOT NULL DEFAULT 0,
    shipped_v20_l     DOUBLE PRECISION NOT NULL DEFAULT 0,
    shipped_t         DOUBLE PRECISION NOT NULL DEFAULT 0,
    received_v20_l    DOUBLE PRECISION NOT NULL DEFAULT 0,
    loss_l            DOUBLE PRECISION NOT NULL DEFAULT 0,
    km                DOUBLE PRECISION NOT NULL DEFAULT 0,
    ton_km            DOUBLE PRECISION NOT NULL DEFAULT 0,
    timed_trips       INTEGER NOT NULL DEFAULT 0,
    out_to_arrival_min DOUBLE PRECISION NOT NULL DEFAULT 0,
    abnormal_openings INTEGER NOT NULL DEFAULT 0,
    over_allowance    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, month, group_id, sales_group_id, product_id)
);
-- covering: a year of cars is an index-only scan of the months' trip (or product) rows
CREATE INDEX stat_trip_monthly_month ON stat_trip_monthly (product_id, month, group_id) INCLUDE (car_id, sales_group_id,
    trips, shipped_vt_l, shipped_v20_l, shipped_t, received_v20_l, loss_l, km, ton_km, timed_trips, out_to_arrival_min,
    abnormal_openings, over_allowance);
CREATE INDEX stat_trip_monthly_group ON stat_trip_monthly (group_id, month);
CREATE INDEX stat_trip_monthly_sales ON stat_trip_monthly (sales_group_id, month);

-- The same sums without the car (per carrier group, sales company and product), daily and monthly:
-- the totals and the per-company and per-product pages read a few thousand of these rows for a year of
-- a 10,000-car fleet instead of the cars' rows. Refresh re-adds the groups a car's day touched.
CREATE TABLE stat_trip_group_daily (
    day               INTEGER NOT NULL,
    group_id          BIGINT NOT NULL,
    sales_group_id    BIGINT NOT NULL DEFAULT 0,
    product_id        BIGINT NOT NULL DEFAULT 0,
    trips             INTEGER NOT NULL DEFAULT 0,
    shipped_vt_l      DOUBLE PRECISION NOT NULL DEFAULT 0,
    shipped_v20_l     DOUBLE PRECISION NOT NULL DEFAULT 0,
    shipped_t         DOUBLE PRECISION NOT NULL DEFAULT 0,
    received_v20_l    DOUBLE PRECISION NOT NULL DEFAULT 0,
    loss_l            DOUBLE PRECISION NOT NULL DEFAULT 0,
    km                DOUBLE PRECISION NOT NULL DEFAULT 0,
    ton_km            DOUBLE PRECISION NOT NULL DEFAULT 0,
    timed_trips       INTEGER NOT NULL DEFAULT 0,
    out_to_arrival_min DOUBLE PRECISION NOT NULL DEFAULT 0,
    abnormal_openings INTEGER NOT NULL DEFAULT 0,
    over_allowance    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, group_id, sales_group_id, product_id)
);
CREATE TABLE stat_trip_group_monthly (
    month             INTEGER NOT NULL,
    group_id          BIGINT NOT NULL,
    sales_group_id    BIGINT NOT NULL DEFAULT 0,
    product_id        BIGINT NOT NULL DEFAULT 0,
    trips             INTEGER NOT NULL DEFAULT 0,
    shipped_vt_l      DOUBLE PRECISION NOT NULL DEFAULT 0,
    shipped_v20_l     DOUBLE PRECISION NOT NULL DEFAULT 0,
    shipped_t         DOUBLE PRECISION NOT NULL DEFAULT 0,
    received_v20_l    DOUBLE PRECISION NOT NULL DEFAULT 0,
    loss_l            DOUBLE PRECISION NOT NULL DEFAULT 0,
    km                DOUBLE PRECISION NOT NULL DEFAULT 0,
    ton_km            DOUBLE PRECISION NOT NULL DEFAULT 0,
    timed_trips       INTEGER NOT NULL DEFAULT 0,
    out_to_arrival_min DOUBLE PRECISION NOT NULL DEFAULT 0,
    abnormal_openings INTEGER NOT NULL DEFAULT 0,
    over_allowance    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (month, group_id, sales_group_id, product_id)
);

-- +goose Down
DROP TABLE stat_trip_group_monthly;
DROP TABLE stat_trip_group_daily;
DROP TABLE stat_trip_monthly;
