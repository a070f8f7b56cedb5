import { SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Input, Select, Spin, Table, Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, Tooltip as MapTooltip } from 'react-leaflet';
import { Link } from 'react-router';
import { fetchTrack } from '../../../api/track';
import { useTileSource } from '../../../components/map/MapView';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import { toMapLatLng } from '../../../lib/mapCoords';
import { formatServerTime, positionAt } from '../../../lib/playback';
import { initialRange } from '../../../lib/presets';
import { toModel } from '../trackReplaying/model';
import { PlayerBar } from '../trackReplaying/PlayerBar';
import { TrackMap } from '../trackReplaying/TrackMap';
import { usePlayer } from '../trackReplaying/usePlayer';
import { FINISHED_STATES, findWaybillHistory, tripDetail, type HistoryTrip, type TripStep } from './api';
import { byTime, currentStep, replayWindow, sliderAt, stepPlace } from './model';
import '../trackReplaying/track.css';
import './historyWaybill.css';

const DEFAULTS = { last_7_days: true } as const;
const PAGE_SIZE = 20;

/** The steps as numbered markers on the map; the one the replay is at stands out. */
function StepMarkers({ steps, current, onPick }: { steps: readonly TripStep[]; current: number; onPick: (t: number) => void }) {
  const { t } = useTranslation();
  const source = useTileSource();
  return (
    <>
      {steps.map((s, i) => {
        const pl = stepPlace(s);
        const p = pl ? toMapLatLng(pl.lng, pl.lat, source) : null;
        if (!p) return null;
        return (
          <CircleMarker
            key={s.id}
            center={p}
            radius={i === current ? 10 : 7}
            pathOptions={{ color: '#fff', weight: 2, fillColor: i === current ? '#7c3aed' : '#0f172a', fillOpacity: 1 }}
            eventHandlers={{ click: () => onPick(s.t) }}
          >
            <MapTooltip direction="top" offset={[0, -8]} permanent={i === current}>
              {i + 1}. {t(`waybillCommon.state.${s.to}`)} · {formatServerTime(s.t).slice(5, 16)}
            </MapTooltip>
          </CircleMarker>
        );
      })}
    </>
  );
}

/** historyWaybill (04-43): a finished trip's track from dispatch to close, replayed with its steps. */
export default function HistoryWaybillPage() {
  const { t } = useTranslation();
  const [range, setRange] = useState<TimeRangeValue>(() => initialRange(DEFAULTS, true));
  const [plate, setPlate] = useState('');
  const [no, setNo] = useState('');
  const [state, setState] = useState<string | undefined>();
  const [page, setPage] = useState(1);
  const [asked, setAsked] = useState({ startTime: range.start, endTime: range.end, carNumber: '', waybillNo: '', state: undefined as string | undefined });
  const [trip, setTrip] = useState<HistoryTrip | null>(null);

  const trips = useQuery({
    queryKey: ['wbhist', 'trips', asked, page],
    queryFn: () =>
      findWaybillHistory({
        pageNum: page,
        pageSize: PAGE_SIZE,
        startTime: asked.startTime || undefined,
        endTime: asked.endTime || undefined,
        carNumber: asked.carNumber || undefined,
        waybillNo: asked.waybillNo || undefined,
        state: asked.state,
      }),
  });
  const [from, to] = trip ? replayWindow(trip.startAt, trip.endAt) : [0, 0];
  const track = useQuery({
    queryKey: ['wbhist', 'track', trip?.waybillId],
    queryFn: () => fetchTrack(trip!.carId, formatServerTime(from), formatServerTime(to)),
    enabled: !!trip,
  });
  const detail = useQuery({ queryKey: ['wbhist', 'detail', trip?.waybillId], queryFn: () => tripDetail(trip!.waybillId), enabled: !!trip });
  const steps = useMemo(() => byTime(detail.data?.steps ?? []), [detail.data]);

  const model = useMemo(() => (track.data ? toModel(track.data) : null), [track.data]);
  const player = usePlayer(model?.track ?? null, model?.stops ?? []);
  const pos = model ? positionAt(model.track, player.t) : null;
  const cur = currentStep(steps, player.t);
  const marks = useMemo(() => {
    if (!model || model.track.points.length === 0) return undefined;
    const out: Record<number, { label: React.ReactNode; style?: React.CSSProperties }> = {};
    steps.forEach((s, i) => {
      out[sliderAt(model.track, s.t)] = {
        label: (
          <Tooltip title={`${t(`waybillCommon.state.${s.to}`)} · ${formatServerTime(s.t)}`}>
            <span className="tw-wbhist-mark">{i + 1}</span>
          </Tooltip>
        ),
      };
    });
    return out;
  }, [model, steps, t]);

  const query = () => {
    setPage(1);
    setAsked({ startTime: range.start, endTime: range.end, carNumber: plate.trim(), waybillNo: no.trim(), state });
  };

  return (
    <div className="tw-wbhist" data-testid="history-waybill-page">
      <div className="tw-wbhist-filters">
        <TimeRangePicker showTime defaults={DEFAULTS} onChange={setRange} />
        <Input allowClear placeholder={t('historyWaybill.plate')} value={plate} onChange={(e) => setPlate(e.target.value)} onPressEnter={query} style={{ width: 150 }} />
        <Input allowClear placeholder={t('historyWaybill.number')} value={no} onChange={(e) => setNo(e.target.value)} onPressEnter={query} style={{ width: 200 }} />
        <Select
          allowClear
          placeholder={t('historyWaybill.state')}
          value={state}
          onChange={setState}
          style={{ width: 150 }}
          options={FINISHED_STATES.map((s) => ({ value: s, label: t(`waybillCommon.state.${s}`) }))}
          data-testid="wbhist-state"
        />
        <Button type="primary" icon={<SearchOutlined />} onClick={query} data-testid="wbhist-query">
          {t('historyWaybill.query')}
        </Button>
      </div>
      <div className="tw-wbhist-body">
        <aside className="tw-wbhist-trips">
          {trips.isError && <Alert type="error" showIcon message={(trips.error as Error).message} />}
          <Table<HistoryTrip>
            size="small"
            rowKey="waybillId"
            loading={trips.isFetching}
            dataSource={trips.data?.list ?? []}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('historyWaybill.noTrips')} /> }}
            pagination={{ current: page, pageSize: PAGE_SIZE, total: trips.data?.total ?? 0, onChange: setPage, size: 'small', showSizeChanger: false, simple: true }}
            onRow={(r) => ({ onClick: () => setTrip(r), className: r.waybillId === trip?.waybillId ? 'tw-wbhist-picked' : undefined })}
            rowClassName="tw-wbhist-row"
            columns={[
              {
                title: t('historyWaybill.trip'),
                key: 'trip',
                render: (_, r) => (
                  <div className="tw-wbhist-trip" data-testid="wbhist-trip" data-waybill={r.waybillNo}>
                    <div>
                      <b>{r.plate}</b> <span className={`tw-wbhist-st st-${r.state}`}>{t(`waybillCommon.state.${r.state}`)}</span>
                    </div>
                    <div className="tw-wbhist-no">{r.waybillNo}</div>
                    <div className="tw-wbhist-sub">
                      {r.depotName} → {r.destinations}
                    </div>
                    <div className="tw-wbhist-sub">
                      {formatServerTime(r.startAt).slice(0, 16)} — {formatServerTime(r.endAt).slice(5, 16)}
                    </div>
                  </div>
                ),
              },
            ]}
          />
        </aside>
        <main className="tw-wbhist-main tw-track-main">
          {track.isError && <Alert type="error" showIcon message={(track.error as Error).message} className="tw-track-alert" />}
          {model?.truncated && <Alert type="warning" showIcon message={t('track.truncated')} className="tw-track-alert" />}
          <TrackMap model={model} pos={pos}>
            <StepMarkers steps={steps} current={cur} onPick={player.seek} />
          </TrackMap>
          {track.isFetching && (
            <div className="tw-track-overlay">
              <Spin />
            </div>
          )}
          {!trip && <div className="tw-track-hint">{t('historyWaybill.hint')}</div>}
          {model && model.track.points.length === 0 && (
            <div className="tw-track-overlay">
              <Empty description={t('historyWaybill.noTrack')} />
            </div>
          )}
          {model && model.track.points.length > 0 && <PlayerBar track={model.track} player={player} pos={pos} marks={marks} />}
        </main>
        <aside className="tw-wbhist-steps" data-testid="wbhist-steps">
          <h3>{trip ? `${trip.plate} · ${trip.waybillNo}` : t('historyWaybill.steps')}</h3>
          {trip && (
            <Link to={`/manager/oilTransportProcess?waybillId=${trip.waybillId}`} className="tw-wbhist-link">
              {t('historyWaybill.timeline')}
            </Link>
          )}
          {trip && detail.isPending && <Spin className="tw-wbhist-pad" />}
          {trip && detail.isError && <Alert type="warning" showIcon message={t('historyWaybill.stepsUnavailable')} description={(detail.error as Error).message} />}
          {trip && detail.isSuccess && steps.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('historyWaybill.noSteps')} />}
          <ol className="tw-wbhist-steplist">
            {steps.map((s, i) => (
              <li key={s.id} className={i === cur ? 'active' : ''}>
                <button type="button" onClick={() => player.seek(s.t)} data-testid="wbhist-step">
                  <span className="tw-wbhist-stepno">{i + 1}</span>
                  <span>
                    <b>
                      {s.from === s.to ? t(`waybillCommon.state.${s.to}`) : `${t(`waybillCommon.state.${s.from}`)} → ${t(`waybillCommon.state.${s.to}`)}`}
                    </b>
                    <small>
                      {formatServerTime(s.t)}
                      {s.evidence ? ` · ${t(`waybillCommon.ev.${s.evidence}`)}` : ''}
                      {s.cause ? ` · ${t(`waybillCommon.cause.${s.cause}`)}` : ''}
                    </small>
                    {(s.stationName || s.reason || s.userName) && <small>{[s.stationName, s.userName, s.reason].filter(Boolean).join(' · ')}</small>}
                    {model && model.track.points.length > 0 && (s.t < model.track.start || s.t > model.track.end) && <small className="tw-wbhist-off">{t('historyWaybill.offTrack')}</small>}
                  </span>
                </button>
              </li>
            ))}
          </ol>
        </aside>
      </div>
    </div>
  );
}
