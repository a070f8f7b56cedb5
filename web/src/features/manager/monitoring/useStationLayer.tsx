import { EnvironmentOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Switch, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { viewStations } from '../../../api/station';

const KEY = 'tw.monitor.stations';

/** The station layer's switch (remembered in this browser) and the stations of the caller's scope. */
export function useStationLayer() {
  const [shown, setShownState] = useState(() => localStorage.getItem(KEY) !== '0');
  const setShown = (v: boolean) => {
    localStorage.setItem(KEY, v ? '1' : '0');
    setShownState(v);
  };
  const q = useQuery({ queryKey: ['station', 'viewStation'], queryFn: () => viewStations(), enabled: shown, staleTime: 60_000 });
  return { shown, setShown, stations: shown ? (q.data ?? []) : [], loading: shown && q.isPending, error: shown && q.isError };
}

/** Header toggle of the station layer. */
export function StationToggle({ shown, onChange, count, loading, error }: { shown: boolean; onChange: (v: boolean) => void; count: number; loading: boolean; error: boolean }) {
  const { t } = useTranslation();
  const hint = error ? t('stationLayer.loadFailed') : shown && !loading ? t('stationLayer.count', { n: count }) : t('stationLayer.hint');
  return (
    <Tooltip title={hint}>
      <label className="tw-station-toggle" data-testid="station-toggle">
        <EnvironmentOutlined />
        <span>{t('stationLayer.toggle')}</span>
        <Switch size="small" checked={shown} loading={loading} onChange={onChange} aria-label={t('stationLayer.toggle')} />
      </label>
    </Tooltip>
  );
}
