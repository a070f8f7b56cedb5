-- +goose Up
-- Trend rollups (issue 14, DECISIONS D38): five-minute (level_rollup, speed_rollup) and hourly (*_h)
-- summaries of level readings and positions, kept current by triggers on every insert, so a month's
-- trend reads ~2,200 hourly summaries instead of ~780,000 readings. b: the slice's start (Unix ms,
-- aligned to the epoch); n: readings in it;
-- t0/t1: the first and last reading's time; *0/*1 the first and last value, *lo/*hi the minimum and
-- maximum (a drop inside the slice stays visible). Level mm, temperature 0.1 °C, volumes litres, speed
-- 1/10 km/h. A deleted reading (retention) drops its whole slice. Every reading rewrites its slices'
-- rows: half-empty pages (fillfactor 50) keep those updates HOT, so a page read prunes the old versions.
CREATE TABLE level_rollup (
    car_id      BIGINT NOT NULL,
    b           BIGINT NOT NULL,
    compartment BIGINT NOT NULL,
    n           BIGINT NOT NULL,
    t0          BIGINT NOT NULL,
    t1          BIGINT NOT NULL,
    lv0 BIGINT NOT NULL, lv1 BIGINT NOT NULL, lvlo BIGINT NOT NULL, lvhi BIGINT NOT NULL,
    vo0 DOUBLE PRECISION NOT NULL, vo1 DOUBLE PRECISION NOT NULL, volo DOUBLE PRECISION NOT NULL, vohi DOUBLE PRECISION NOT NULL,
    vs0 DOUBLE PRECISION NOT NULL, vs1 DOUBLE PRECISION NOT NULL, vslo DOUBLE PRECISION NOT NULL, vshi DOUBLE PRECISION NOT NULL,
    tp0 BIGINT NOT NULL, tp1 BIGINT NOT NULL, tplo BIGINT NOT NULL, tphi BIGINT NOT NULL,
    PRIMARY KEY (car_id, b, compartment)
) WITH (fillfactor = 50);

CREATE TABLE level_rollup_h (
    car_id      BIGINT NOT NULL,
    b           BIGINT NOT NULL,
    compartment BIGINT NOT NULL,
    n           BIGINT NOT NULL,
    t0          BIGINT NOT NULL,
    t1          BIGINT NOT NULL,
    lv0 BIGINT NOT NULL, lv1 BIGINT NOT NULL, lvlo BIGINT NOT NULL, lvhi BIGINT NOT NULL,
    vo0 DOUBLE PRECISION NOT NULL, vo1 DOUBLE PRECISION NOT NULL, volo DOUBLE PRECISION NOT NULL, vohi DOUBLE PRECISION NOT NULL,
    vs0 DOUBLE PRECISION NOT NULL, vs1 DOUBLE PRECISION NOT NULL, vslo DOUBLE PRECISION NOT NULL, vshi DOUBLE PRECISION NOT NULL,
    tp0 BIGINT NOT NULL, tp1 BIGINT NOT NULL, tplo BIGINT NOT NULL, tphi BIGINT NOT NULL,
    PRIMARY KEY (car_id, b, compartment)
) WITH (fillfactor = 50);

-- +goose StatementBegin
CREATE FUNCTION level_rollup_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO level_rollup AS r VALUES (NEW.car_id, NEW.t - (NEW.t % 300000), NEW.compartment, 1, NEW.t, NEW.t,
        NEW.level_mm, NEW.level_mm, NEW.level_mm, NEW.level_mm,
        NEW.volume_l, NEW.volume_l, NEW.volume_l, NEW.volume_l,
        NEW.v20_l, NEW.v20_l, NEW.v20_l, NEW.v20_l,
        NEW.temp_dc, NEW.temp_dc, NEW.temp_dc, NEW.temp_dc)
    ON CONFLICT (car_id, b, compartment) DO UPDATE SET n = r.n + 1,
        t0 = LEAST(r.t0, excluded.t0), t1 = GREATEST(r.t1, excluded.t1),
        lv0 = CASE WHEN excluded.t0 < r.t0 THEN excluded.lv0 ELSE r.lv0 END,
        lv1 = CASE WHEN excluded.t1 >= r.t1 THEN excluded.lv1 ELSE r.lv1 END,
        lvlo = LEAST(r.lvlo, excluded.lvlo), lvhi = GREATEST(r.lvhi, excluded.lvhi),
        vo0 = CASE WHEN excluded.t0 < r.t0 THEN excluded.vo0 ELSE r.vo0 END,
        vo1 = CASE WHEN excluded.t1 >= r.t1 THEN excluded.vo1 ELSE r.vo1 END,
        volo = LEAST(r.volo, excluded.volo), vohi = GREATEST(r.vohi, excluded.vohi),
        vs0 = CASE WHEN excluded.t0 < r.t0 THEN excluded.vs0 ELSE r.vs0 END,
        vs1 = CASE WHEN excluded.t1 >= r.t1 THEN excluded.vs1 ELSE r.vs1 END,
        vslo = LEAST(r.vslo, excluded.vslo), vshi = GREATEST(r.vshi, excluded.vshi),
        tp0 = CASE WHEN excluded.t0 < r.t0 THEN excluded.tp0 ELSE r.tp0 END,
        tp1 = CASE WHEN excluded.t1 >= r.t1 THEN excluded.tp1 ELSE r.tp1 END,
        tplo = LEAST(r.tplo, excluded.tplo), tphi = GREATEST(r.tphi, excluded.tphi);

    INSERT INTO level_rollup_h AS r VALUES (NEW.car_id, NEW.t - (NEW.t % 3600000), NEW.compartment, 1, NEW.t, NEW.t,
        NEW.level_mm, NEW.level_mm, NEW.level_mm, NEW.level_mm,
        NEW.volume_l, NEW.volume_l, NEW.volume_l, NEW.volume_l,
        NEW.v20_l, NEW.v20_l, NEW.v20_l, NEW.v20_l,
        NEW.temp_dc, NEW.temp_dc, NEW.temp_dc, NEW.temp_dc)
    ON CONFLICT (car_id, b, compartment) DO UPDATE SET n = r.n + 1,
        t0 = LEAST(r.t0, excluded.t0), t1 = GREATEST(r.t1, excluded.t1),
        lv0 = CASE WHEN excluded.t0 < r.t0 THEN excluded.lv0 ELSE r.lv0 END,
        lv1 = CASE WHEN excluded.t1 >= r.t1 THEN excluded.lv1 ELSE r.lv1 END,
        lvlo = LEAST(r.lvlo, excluded.lvlo), lvhi = GREATEST(r.lvhi, excluded.lvhi),
        vo0 = CASE WHEN excluded.t0 < r.t0 THEN excluded.vo0 ELSE r.vo0 END,
        vo1 = CASE WHEN excluded.t1 >= r.t1 THEN excluded.vo1 ELSE r.vo1 END,
        volo = LEAST(r.volo, excluded.volo), vohi = GREATEST(r.vohi, excluded.vohi),
        vs0 = CASE WHEN excluded.t0 < r.t0 THEN excluded.vs0 ELSE r.vs0 END,
        vs1 = CASE WHEN excluded.t1 >= r.t1 THEN excluded.vs1 ELSE r.vs1 END,
        vslo = LEAST(r.vslo, excluded.vslo), vshi = GREATEST(r.vshi, excluded.vshi),
        tp0 = CASE WHEN excluded.t0 < r.t0 THEN excluded.tp0 ELSE r.tp0 END,
        tp1 = CASE WHEN excluded.t1 >= r.t1 THEN excluded.tp1 ELSE r.tp1 END,
        tplo = LEAST(r.tplo, excluded.tplo), tphi = GREATEST(r.tphi, excluded.tphi);
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER level_rollup_ins AFTER INSERT ON level_readings FOR EACH ROW EXECUTE FUNCTION level_rollup_ins();

-- +goose StatementBegin
CREATE FUNCTION level_rollup_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM level_rollup WHERE car_id = OLD.car_id AND b = OLD.t - (OLD.t % 300000) AND compartment = OLD.compartment;
    DELETE FROM level_rollup_h WHERE car_id = OLD.car_id AND b = OLD.t - (OLD.t % 3600000) AND compartment = OLD.compartment;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER level_rollup_del AFTER DELETE ON level_readings FOR EACH ROW EXECUTE FUNCTION level_rollup_del();

CREATE TABLE speed_rollup (
    car_id BIGINT NOT NULL,
    b      BIGINT NOT NULL,
    n      BIGINT NOT NULL,
    t0     BIGINT NOT NULL,
    t1     BIGINT NOT NULL,
    sp0 BIGINT NOT NULL, sp1 BIGINT NOT NULL, splo BIGINT NOT NULL, sphi BIGINT NOT NULL,
    PRIMARY KEY (car_id, b)
) WITH (fillfactor = 50);

CREATE TABLE speed_rollup_h (
    car_id BIGINT NOT NULL,
    b      BIGINT NOT NULL,
    n      BIGINT NOT NULL,
    t0     BIGINT NOT NULL,
    t1     BIGINT NOT NULL,
    sp0 BIGINT NOT NULL, sp1 BIGINT NOT NULL, splo BIGINT NOT NULL, sphi BIGINT NOT NULL,
    PRIMARY KEY (car_id, b)
) WITH (fillfactor = 50);

-- +goose StatementBegin
CREATE FUNCTION speed_rollup_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO speed_rollup AS r VALUES (NEW.car_id, NEW.t - (NEW.t % 300000), 1, NEW.t, NEW.t,
        NEW.speed, NEW.speed, NEW.speed, NEW.speed)
    ON CONFLICT (car_id, b) DO UPDATE SET n = r.n + 1,
        t0 = LEAST(r.t0, excluded.t0), t1 = GREATEST(r.t1, excluded.t1),
        sp0 = CASE WHEN excluded.t0 < r.t0 THEN excluded.sp0 ELSE r.sp0 END,
        sp1 = CASE WHEN excluded.t1 >= r.t1 THEN excluded.sp1 ELSE r.sp1 END,
        splo = LEAST(r.splo, excluded.splo), sphi = GREATEST(r.sphi, excluded.sphi);

    INSERT INTO speed_rollup_h AS r VALUES (NEW.car_id, NEW.t - (NEW.t % 3600000), 1, NEW.t, NEW.t,
        NEW.speed, NEW.speed, NEW.speed, NEW.speed)
    ON CONFLICT (car_id, b) DO UPDATE SET n = r.n + 1,
        t0 = LEAST(r.t0, excluded.t0), t1 = GREATEST(r.t1, excluded.t1),
        sp0 = CASE WHEN excluded.t0 < r.t0 THEN excluded.sp0 ELSE r.sp0 END,
        sp1 = CASE WHEN excluded.t1 >= r.t1 THEN excluded.sp1 ELSE r.sp1 END,
        splo = LEAST(r.splo, excluded.splo), sphi = GREATEST(r.sphi, excluded.sphi);
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER speed_rollup_ins AFTER INSERT ON positions FOR EACH ROW EXECUTE FUNCTION speed_rollup_ins();

-- +goose StatementBegin
CREATE FUNCTION speed_rollup_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM speed_rollup WHERE car_id = OLD.car_id AND b = OLD.t - (OLD.t % 300000);
    DELETE FROM speed_rollup_h WHERE car_id = OLD.car_id AND b = OLD.t - (OLD.t % 3600000);
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER speed_rollup_del AFTER DELETE ON positions FOR EACH ROW EXECUTE FUNCTION speed_rollup_del();

-- +goose Down
DROP TRIGGER speed_rollup_del ON positions;
DROP FUNCTION speed_rollup_del();
DROP TRIGGER speed_rollup_ins ON positions;
DROP FUNCTION speed_rollup_ins();
DROP TABLE speed_rollup_h;
DROP TABLE speed_rollup;
DROP TRIGGER level_rollup_del ON level_readings;
DROP FUNCTION level_rollup_del();
DROP TRIGGER level_rollup_ins ON level_readings;
DROP FUNCTION level_rollup_ins();
DROP TABLE level_rollup_h;
DROP TABLE level_rollup;
