import { CaretRightOutlined, PauseOutlined, StepBackwardOutlined } from '@ant-design/icons';
import { Button, Checkbox, Select, Slider, Space, Tooltip, type SliderSingleProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { bearingText } from '../../../lib/bearing';
import { formatServerTime, fractionAt, SPEEDS, timeAtFraction, type Position, type Track } from '../../../lib/playback';
import type { Player } from './usePlayer';

const STEPS = 1000;

/** Play / pause / restart, speed, skip stops, and the seek slider with where the vehicle is; `marks` on the slider (0–1000). */
export function PlayerBar({ track, player, pos, marks }: { track: Track; player: Player; pos: Position | null; marks?: SliderSingleProps['marks'] }) {
  const { t } = useTranslation();
  return (
    <div className="tw-player" data-testid="track-player">
      <Space size={6}>
        <Tooltip title={t('track.restart')}>
          <Button shape="circle" icon={<StepBackwardOutlined />} onClick={() => player.seek(track.start)} aria-label={t('track.restart')} />
        </Tooltip>
        {player.playing ? (
          <Button type="primary" shape="circle" icon={<PauseOutlined />} onClick={player.pause} aria-label={t('track.pause')} data-testid="track-pause" />
        ) : (
          <Button type="primary" shape="circle" icon={<CaretRightOutlined />} onClick={player.play} aria-label={t('track.play')} data-testid="track-play" />
        )}
        <Select
          size="small"
          value={player.speed}
          onChange={player.setSpeed}
          style={{ width: 92 }}
          aria-label={t('track.speed')}
          options={SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
          data-testid="track-speed"
        />
        <Checkbox checked={player.skipStops} onChange={(e) => player.setSkipStops(e.target.checked)}>
          {t('track.skipStops')}
        </Checkbox>
      </Space>
      <Slider
        className="tw-player-slider"
        min={0}
        max={STEPS}
        marks={marks}
        value={Math.round(fractionAt(track, player.t) * STEPS)}
        onChange={(v) => player.seek(timeAtFraction(track, v / STEPS))}
        tooltip={{ formatter: (v) => formatServerTime(timeAtFraction(track, (v ?? 0) / STEPS)) }}
        data-testid="track-slider"
      />
      <div className="tw-player-now" data-testid="track-now">
        <span>{formatServerTime(player.t)}</span>
        {pos && (
          <>
            <span>{t('track.speedNow', { v: pos.speed.toFixed(1) })}</span>
            <span>{(({ key, args }) => t(key, args))(bearingText(pos.direction))}</span>
          </>
        )}
      </div>
    </div>
  );
}
