import { SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Empty, Select, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { groundTanks, levelChart2, type TankChartDTO } from '../../../api/trend';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import { formatServerTime } from '../../../lib/playback';
import { initialRange, PLEASE_SELECT_TIME } from '../../../lib/presets';
import { useLarge, useResolution } from '../hydtrend/hooks';
import { MAX_POINTS, needsRequery, parseServerTime, windowAround } from '../hydtrend/model';
import { TrendChart } from '../hydtrend/TrendChart';
import '../hydtrend/trend.css';
import { TANK_VALUES, tankOption, type TankValue } from './option';

const DEFAULTS = { last_7_days: true } as const;
type Ask = { tankId: number; start: number; end: number };

/** hydtrend2: a station ground tank over a period with its deliveries and sales rate (DECISIONS D38). */
export default function Hydtrend2Page() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const link = useMemo(() => windowAround(params.get('at')), [params]);
  const linkTank = Number(params.get('tankId')) || undefined;
  const [tankId, setTankId] = useState<number | undefined>(linkTank);
  const [stationId, setStationId] = useState<number | undefined>();
  const [range, setRange] = useState<TimeRangeValue>(() =>
    link ? { preset: PLEASE_SELECT_TIME, start: formatServerTime(link.start), end: formatServerTime(link.end) } : initialRange(DEFAULTS, true));
  const [asked, setAsked] = useState<Ask | null>(() => (linkTank && link ? { tankId: linkTank, start: link.start, end: link.end } : null));
  const [shown, setShown] = useState<Set<TankValue>>(new Set(['volume', 'v20']));
  const [view, setView] = useState<{ start: number; end: number } | null>(null);
  const [detailAsk, setDetailAsk] = useState<Ask | null>(null);
  const large = useLarge();
  const resolution = useResolution();

  const tanks = useQuery({ queryKey: ['trend', 'tanks'], queryFn: groundTanks });
  const stations = useMemo(() => {
    const m = new Map<number, string>();
    for (const k of tanks.data ?? []) m.set(k.stationId, k.stationName);
    return [...m].map(([value, label]) => ({ value, label }));
  }, [tanks.data]);
  const station = stationId ?? (tankId ? tanks.data?.find((k) => k.id === tankId)?.stationId : undefined);
  const stationTanks = (tanks.data ?? []).filter((k) => station === undefined || k.stationId === station);

  const overview = useQuery({ queryKey: ['trend', 'levelChart2', asked], queryFn: () => levelChart2({ ...asked!, maxPoints: MAX_POINTS }), enabled: !!asked });
  const detail = useQuery({
    queryKey: ['trend', 'levelChart2', 'detail', detailAsk],
    queryFn: () => levelChart2({ ...detailAsk!, maxPoints: MAX_POINTS }),
    enabled: !!detailAsk,
    placeholderData: keepPreviousData,
  });
  const data: TankChartDTO | undefined = overview.data;
  const det = detailAsk && detail.data && detail.data.tankId === asked?.tankId ? detail.data : null;
  const option = useMemo(
    () => (data ? tankOption({ overview: data, detail: det, shown, view, mark: link && asked?.tankId === linkTank ? link.at : null, t, large }) : null),
    [data, det, shown, view, link, linkTank, asked, t, large],
  );

  const r = { start: parseServerTime(range.start), end: parseServerTime(range.end) };
  const canQuery = !!tankId && Number.isFinite(r.start) && Number.isFinite(r.end);
  const query = () => {
    if (!canQuery) return;
    setAsked({ tankId: tankId!, start: r.start, end: r.end });
    setView(null);
    setDetailAsk(null);
  };
  const onZoom = (start: number, end: number) => {
    if (!data) return;
    const full = start <= data.start && end >= data.end;
    setView(full ? null : { start, end });
    if (!full && needsRequery({ start, end }, data, det)) setDetailAsk({ tankId: data.tankId, start: Math.floor(start), end: Math.ceil(end) });
    if (full) setDetailAsk(null);
  };

  return (
    <div className="tw-trend" data-testid="hydtrend2">
      <div className="tw-trend-bar">
        <Select allowClear showSearch optionFilterProp="label" placeholder={t('station.stationName')} style={{ width: 200 }}
          value={station} options={stations} onChange={(v) => { setStationId(v); setTankId(undefined); }} data-testid="trend-station" loading={tanks.isLoading} />
        <Select showSearch optionFilterProp="label" placeholder={t('trend.pickTank')} style={{ width: 260 }} value={tankId} onChange={setTankId}
          data-testid="trend-tank" loading={tanks.isLoading} notFoundContent={t('trend.noTanks')}
          options={stationTanks.map((k) => ({ value: k.id, label: t('trend.tankLabel', { station: k.stationName, no: k.tankNo, name: k.name }) }))} />
        <TimeRangePicker showTime defaults={DEFAULTS} value={range} onChange={setRange} />
        <Button type="primary" icon={<SearchOutlined />} disabled={!canQuery} onClick={query} data-testid="trend-query">
          {t('trend.query')}
        </Button>
      </div>
      {data && (
        <div className="tw-trend-bar2">
          <Checkbox.Group data-testid="trend-values" value={[...shown]} onChange={(v) => setShown(new Set(v as TankValue[]))}
            options={TANK_VALUES.map((k) => ({ value: k, label: t(`trend.${k}`) }))} />
          <span className="tw-trend-res">{t('trend.readings', { n: data.readings })} · {resolution(det && view ? det.bucketMs : data.bucketMs)}</span>
          {view && <Button size="small" onClick={() => { setView(null); setDetailAsk(null); }}>{t('trend.resetZoom')}</Button>}
        </div>
      )}
      {data?.truncated && <Alert type="warning" showIcon message={t('trend.truncated')} />}
      <div className="tw-trend-body">
        <div className="tw-trend-chart">
          {tanks.isSuccess && tanks.data.length === 0 && !asked && <div className="tw-trend-center" data-testid="trend-empty"><Empty description={t('trend.noTanks')} /></div>}
          {!asked && !(tanks.isSuccess && tanks.data.length === 0) && <div className="tw-trend-center"><Empty description={t('trend.hint2')} /></div>}
          {asked && overview.isLoading && <div className="tw-trend-center"><Spin tip={t('common.loading')}><div style={{ width: 120, height: 60 }} /></Spin></div>}
          {asked && overview.isError && <div className="tw-trend-center"><Empty description={t('common.requestFailed')} /></div>}
          {data && data.readings === 0 && <Alert type="info" showIcon message={t('trend.noReadings')} data-testid="trend-empty" style={{ marginBottom: 8 }} />}
          {data && option && (
            <>
              {detailAsk && detail.isFetching && <Spin size="small" className="tw-trend-detail"><span /></Spin>}
              <TrendChart option={option} height={large ? 'calc(100vh - 260px)' : 'max(540px, calc(100vh - 250px))'} onZoom={onZoom} testId="trend-chart" />
            </>
          )}
        </div>
      </div>
    </div>
  );
}
