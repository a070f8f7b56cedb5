-- +goose Up
-- The trend rollups (00018, DECISIONS D38) are no longer kept by insert triggers, two upserts per
-- inserted row: the history writer folds the rows a batch actually inserted into slices and upserts
-- each slice once, in the batch's transaction (internal/tank/trend/rollup, DECISIONS D99). Whatever
-- else inserts readings or positions calls rollup.Rebuild for what it inserted. The delete triggers
-- stay: retention deletes rows (SQLite, PostgreSQL's default partition) and their slices go with them.
DROP TRIGGER level_rollup_ins ON level_readings;
DROP FUNCTION level_rollup_ins();
DROP TRIGGER speed_rollup_ins ON positions;
DROP FUNCTION speed_rollup_ins();

-- +goose Down
-- (rows inserted meanwhile are not in the slices: rebuild them, rollup.Rebuild)
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
