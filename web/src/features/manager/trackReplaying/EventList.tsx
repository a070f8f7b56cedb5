import { AlertOutlined, PauseCircleOutlined } from '@ant-design/icons';
import { Empty, List, Segmented } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatServerTime } from '../../../lib/playback';
import type { TrackEvent } from './model';

type Filter = 'all' | 'stop' | 'alarm';

/** Stops and alarms along the route; clicking one seeks the player there. */
export function EventList({ events, current, onSeek }: { events: readonly TrackEvent[]; current: number; onSeek: (t: number) => void }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>('all');
  const shown = filter === 'all' ? events : events.filter((e) => e.kind === filter);
  const stops = events.filter((e) => e.kind === 'stop').length;
  return (
    <div className="tw-track-events" data-testid="track-events">
      <Segmented<Filter>
        size="small"
        block
        value={filter}
        onChange={setFilter}
        options={[
          { value: 'all', label: t('track.all', { n: events.length }) },
          { value: 'stop', label: t('track.stops', { n: stops }) },
          { value: 'alarm', label: t('track.alarms', { n: events.length - stops }) },
        ]}
      />
      {shown.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(filter === 'alarm' ? 'track.noAlarms' : filter === 'stop' ? 'track.noStops' : 'track.noEvents')} />
      ) : (
        <List
          size="small"
          dataSource={shown as TrackEvent[]}
          renderItem={(e) => {
            const active = e.kind === 'stop' ? current >= e.t && current < (e.end ?? e.t) : Math.abs(current - e.t) < 1000;
            return (
              <List.Item className={`tw-track-event ${e.kind}${active ? ' active' : ''}`} onClick={() => onSeek(e.t)} data-kind={e.kind}>
                <span className="tw-track-event-icon">{e.kind === 'stop' ? <PauseCircleOutlined /> : <AlertOutlined />}</span>
                <div>
                  <div>{e.kind === 'stop' ? t('track.stopFor', { n: e.minutes }) : (e.names ?? []).join(t('common.listSeparator')) || t('track.alarm')}</div>
                  <div className="tw-track-event-time">
                    {formatServerTime(e.t)}
                    {e.kind === 'stop' && e.end ? ` — ${formatServerTime(e.end).slice(11)}` : ''}
                  </div>
                </div>
              </List.Item>
            );
          }}
        />
      )}
    </div>
  );
}
