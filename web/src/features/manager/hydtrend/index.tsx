import { SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Empty, Radio, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { levelChart, type CarChartDTO } from '../../../api/trend';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { formatServerTime } from '../../../lib/playback';
import { initialRange, PLEASE_SELECT_TIME } from '../../../lib/presets';
import { MAX_POINTS, needsRequery, parseServerTime, windowAround } from './model';
import { carOption, VALUE_KEYS, type ValueKey } from './option';
import { useLarge, useResolution } from './hooks';
import { PositionCard } from './PositionCard';
import { TrendChart } from './TrendChart';
import './trend.css';

const DEFAULTS = { today: true } as const;

type Ask = { carId: number; start: number; end: number };

/** hydtrend: a car's compartments over a period with speed and events on one time axis (DECISIONS D38). */
export default function HydtrendPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const link = useMemo(() => windowAround(params.get('at')), [params]);
  const linkCar = Number(params.get('carId')) || undefined;
  const [carId, setCarId] = useState<number | undefined>(linkCar);
  const [range, setRange] = useState<TimeRangeValue>(() =>
    link ? { preset: PLEASE_SELECT_TIME, start: formatServerTime(link.start), end: formatServerTime(link.end) } : initialRange(DEFAULTS, true));
  const [asked, setAsked] = useState<Ask | null>(() => (linkCar && link ? { carId: linkCar, start: link.start, end: link.end } : null));
  const [value, setValue] = useState<ValueKey>('volume');
  const [hidden, setHidden] = useState<Set<number>>(new Set());
  const [view, setView] = useState<{ start: number; end: number } | null>(null);
  const [detailAsk, setDetailAsk] = useState<Ask | null>(null);
  const [picked, setPicked] = useState<number | null>(link?.at ?? null);
  const large = useLarge();
  const resolution = useResolution();

  const overview = useQuery({ queryKey: ['trend', 'levelChart', asked], queryFn: () => levelChart({ ...asked!, maxPoints: MAX_POINTS }), enabled: !!asked });
  const detail = useQuery({
    queryKey: ['trend', 'levelChart', 'detail', detailAsk],
    queryFn: () => levelChart({ ...detailAsk!, maxPoints: MAX_POINTS }),
    enabled: !!detailAsk,
    placeholderData: keepPreviousData,
  });
  const data: CarChartDTO | undefined = overview.data;
  const det = detailAsk && detail.data && detail.data.carId === asked?.carId ? detail.data : null;

  const shown = useMemo(() => new Set((data?.compartments ?? []).map((c) => c.no).filter((n) => !hidden.has(n))), [data, hidden]);
  const option = useMemo(
    () => (data ? carOption({ overview: data, detail: det, value, shown, view, mark: picked, t, large }) : null),
    [data, det, value, shown, view, picked, t, large],
  );

  const range2 = { start: parseServerTime(range.start), end: parseServerTime(range.end) };
  const canQuery = !!carId && Number.isFinite(range2.start) && Number.isFinite(range2.end);
  const query = () => {
    if (!canQuery) return;
    setAsked({ carId: carId!, start: range2.start, end: range2.end });
    setView(null);
    setDetailAsk(null);
    setPicked(null);
  };
  const onZoom = (start: number, end: number) => {
    if (!data) return;
    const full = start <= data.start && end >= data.end;
    setView(full ? null : { start, end });
    if (!full && needsRequery({ start, end }, data, det)) setDetailAsk({ carId: data.carId, start: Math.floor(start), end: Math.ceil(end) });
    if (full) setDetailAsk(null);
  };

  const noReadings = !!data && data.compartments.every((c) => c.readings === 0);
  return (
    <div className="tw-trend" data-testid="hydtrend">
      <div className="tw-trend-bar">
        <VehiclePicker
          value={carId}
          onChange={(v) => setCarId(v)}
          placeholder={t('trend.pickCar')}
          style={{ width: 220 }}
          // a linked car may not be among the picker's first results: its plate from the answer
          labelRender={(p) => (p.label ? p.label : data && data.carId === p.value ? data.plate : p.value)}
        />
        <TimeRangePicker showTime defaults={DEFAULTS} value={range} onChange={setRange} />
        <Button type="primary" icon={<SearchOutlined />} disabled={!canQuery} onClick={query} data-testid="trend-query">
          {t('trend.query')}
        </Button>
      </div>
      {data && data.compartments.length > 0 && (
        <div className="tw-trend-bar2">
          <span>
            {t('trend.compartments')}:{' '}
            <Checkbox.Group
              data-testid="trend-comps"
              value={[...shown]}
              options={data.compartments.map((c) => ({ value: c.no, label: t('trend.comp', { n: c.no }) }))}
              onChange={(v) => setHidden(new Set(data.compartments.map((c) => c.no).filter((n) => !(v as number[]).includes(n))))}
            />
          </span>
          <Radio.Group value={value} onChange={(e) => setValue(e.target.value)} optionType="button" size="small" data-testid="trend-value"
            options={VALUE_KEYS.map((k) => ({ value: k, label: t(`trend.${k}`) }))} />
          <span className="tw-trend-res" data-testid="trend-resolution">{resolution(det && view ? det.bucketMs : data.bucketMs)}</span>
          {view && <Button size="small" onClick={() => { setView(null); setDetailAsk(null); }}>{t('trend.resetZoom')}</Button>}
        </div>
      )}
      {data?.truncated && <Alert type="warning" showIcon message={t('trend.truncated')} />}
      <div className="tw-trend-body">
        <div className="tw-trend-chart">
          {!asked && <div className="tw-trend-center"><Empty description={t('trend.hint')} /></div>}
          {asked && overview.isLoading && <div className="tw-trend-center"><Spin tip={t('common.loading')}><div style={{ width: 120, height: 60 }} /></Spin></div>}
          {asked && overview.isError && <div className="tw-trend-center"><Empty description={t('common.requestFailed')} /></div>}
          {data && data.compartments.length === 0 && (
            <div className="tw-trend-center" data-testid="trend-empty"><Empty description={t('trend.noProbes')} /></div>
          )}
          {data && data.compartments.length > 0 && (
            <>
              {noReadings && <Alert type="info" showIcon message={t('trend.noReadings')} data-testid="trend-empty" style={{ marginBottom: 8 }} />}
              {detailAsk && detail.isFetching && <Spin size="small" className="tw-trend-detail" tip={t('trend.detailLoading')}><span /></Spin>}
              {option && <TrendChart option={option} height={large ? 'calc(100vh - 260px)' : 'max(540px, calc(100vh - 250px))'} onZoom={onZoom} onPick={setPicked} testId="trend-chart" />}
            </>
          )}
        </div>
        {asked && (
          <div className="tw-trend-side">
            <PositionCard carId={asked.carId} t={picked} />
          </div>
        )}
      </div>
    </div>
  );
}
