import { ArrowLeftOutlined, SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Select, Spin, Statistic } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useCarSearch } from '../../../components/useCarSearch';
import { fetchTrack } from '../../../api/track';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import { hoursMinutes, positionAt, summarize } from '../../../lib/playback';
import { initialRange } from '../../../lib/presets';
import { EventList } from './EventList';
import { toModel } from './model';
import { PlayerBar } from './PlayerBar';
import { TrackMap } from './TrackMap';
import { usePlayer } from './usePlayer';
import './track.css';

const DEFAULTS = { today: true } as const;

/** trackReplaying (full screen): a car's track over a time range, played, paused, sped up and sought. */
export default function TrackReplayPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = Number(params.get('code')) || undefined;
  const [carId, setCarId] = useState<number | undefined>(() => Number(params.get('carId')) || undefined);
  const [range, setRange] = useState<TimeRangeValue>(() => initialRange(DEFAULTS, true));
  const [asked, setAsked] = useState<{ carId: number; start: string; end: string } | null>(null);

  const { selectProps: carSelect } = useCarSearch('track', code);
  const track = useQuery({
    queryKey: ['track', asked],
    queryFn: () => fetchTrack(asked!.carId, asked!.start, asked!.end),
    enabled: !!asked,
  });
  const model = useMemo(() => (track.data ? toModel(track.data) : null), [track.data]);
  const player = usePlayer(model?.track ?? null, model?.stops ?? []);
  const pos = model ? positionAt(model.track, player.t) : null;
  const summary = useMemo(() => (model ? summarize(model.track.points) : null), [model]);

  const canQuery = !!carId && !!range.start && !!range.end;
  const query = () => canQuery && setAsked({ carId: carId!, start: range.start, end: range.end });
  const title = params.get('title');

  return (
    <div className="tw-track">
      <header className="tw-track-head">
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/home')} aria-label={t('track.back')} />
        <h1>{t('menu.trackReplaying')}</h1>
        {title && <span className="tw-track-filter">{title}</span>}
      </header>
      <div className="tw-track-body">
        <aside className="tw-track-side">
          <div className="tw-track-form">
            <Select
              {...carSelect}
              value={carId}
              onChange={(v) => setCarId(v)}
              data-testid="track-car"
              style={{ width: '100%' }}
            />
            <TimeRangePicker showTime defaults={DEFAULTS} onChange={setRange} />
            <Button type="primary" icon={<SearchOutlined />} disabled={!canQuery} onClick={query} block data-testid="track-query">
              {t('track.query')}
            </Button>
          </div>
          {model && summary && (
            <div className="tw-track-summary" data-testid="track-summary">
              <Statistic title={t('track.distance')} value={summary.km.toFixed(1)} suffix="km" />
              <Statistic title={t('track.duration')} value={t('track.hm', { h: hoursMinutes(summary.durationMs)[0], m: hoursMinutes(summary.durationMs)[1] })} />
              <Statistic title={t('track.maxSpeed')} value={summary.maxSpeed.toFixed(0)} suffix="km/h" />
              <Statistic title={t('track.points')} value={model.track.points.length} />
            </div>
          )}
          {model && <EventList events={model.events} current={player.t} onSeek={player.seek} />}
        </aside>
        <main className="tw-track-main">
          {track.isError && <Alert type="error" showIcon message={(track.error as Error).message} className="tw-track-alert" />}
          {model?.truncated && <Alert type="warning" showIcon message={t('track.truncated')} className="tw-track-alert" />}
          <TrackMap model={model} pos={pos} />
          {track.isFetching && (
            <div className="tw-track-overlay">
              <Spin />
            </div>
          )}
          {!asked && <div className="tw-track-hint">{t('track.hint')}</div>}
          {model && model.track.points.length === 0 && (
            <div className="tw-track-overlay">
              <Empty description={t('track.empty')} />
            </div>
          )}
          {model && model.track.points.length > 0 && <PlayerBar track={model.track} player={player} pos={pos} />}
        </main>
      </div>
    </div>
  );
}
