import { LineChartOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Space, Spin, Tag, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { handleInvalidToken } from '../../../api/client';
import { LiveStream, liveUrl, type LiveState } from '../../../api/liveStream';
import { tankMonitor, type TankCompartment, type V20Query } from '../../../api/tankMonitor';
import { STORAGE, useAppStore } from '../../../app/store';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { initialCar, LAST_CAR_KEY } from './tankDraw';
import { TankSection } from './TankSection';
import { V20Panel } from './V20Panel';
import './tankMonitor.css';

/** While the stream is down the car is read over HTTP this often. */
const FALLBACK_POLL_MS = 15_000;

/**
 * Follows one car on /ws/live (tanks: true) and calls onChange whenever its tank data or its marker
 * changes; reports the stream's state.
 */
function useTankStream(carId: number | undefined, onChange: () => void, setState: (s: LiveState) => void): void {
  const lang = useAppStore((s) => s.lang);
  useEffect(() => {
    if (!carId) return;
    let first = true;
    const stream = new LiveStream({
      url: () => liveUrl(localStorage.getItem(STORAGE.token) ?? '', lang),
      onMessage: (m) => {
        if (m.type === 'error') return;
        // the snapshot after a (re)connect: read again, something may have changed meanwhile
        if (m.type === 'snapshot' && !first) onChange();
        first = false;
        if (m.type === 'delta' && (m.tanks?.some((x) => x.carId === carId) || m.cars.some((c) => c.carId === carId))) onChange();
      },
      onState: setState,
      onUnauthorized: handleInvalidToken,
    });
    stream.start();
    stream.select({ carIds: [carId], tanks: true });
    return () => stream.stop();
  }, [carId, lang, onChange, setState]);
}

/** 油罐监控: one car's compartments drawn with their liquid, figures and devices, live. */
export default function TankMonitorPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [carId, setCarId] = useState<number | undefined>(() => initialCar(location.search, localStorage.getItem(LAST_CAR_KEY)));
  const [preset, setPreset] = useState<(Partial<V20Query> & { key: number }) | undefined>();

  useEffect(() => {
    const fromUrl = initialCar(location.search, null);
    if (fromUrl) setCarId(fromUrl);
  }, [location.search]);
  useEffect(() => {
    if (carId) localStorage.setItem(LAST_CAR_KEY, String(carId));
  }, [carId]);

  const [liveState, setLiveState] = useState<LiveState>('idle');
  const car = useQuery({
    queryKey: ['tankMonitor', carId],
    queryFn: () => tankMonitor(carId!),
    enabled: !!carId,
    retry: false,
    placeholderData: (prev) => (prev?.carId === carId ? prev : undefined),
    // the stream says when to read again; without it, read every FALLBACK_POLL_MS
    refetchInterval: liveState === 'open' ? false : FALLBACK_POLL_MS,
  });
  const refetchRef = useRef(car.refetch);
  useEffect(() => {
    refetchRef.current = car.refetch;
  }, [car.refetch]);
  const onChange = useCallback(() => void refetchRef.current(), []);
  useTankStream(carId, onChange, setLiveState);

  const v = car.data;
  const use = (c: TankCompartment) =>
    setPreset({ key: Date.now(), vt: c.volume, temperature: c.temperature, product: c.product >= 0 ? c.product : undefined });

  return (
    <div className="tw-page tw-tank-page">
      <Card variant="borderless" style={{ marginBottom: 12 }}>
        <Space wrap size="middle" align="center">
          <span>{t('tankMonitor.vehicle')}</span>
          <VehiclePicker
            value={carId}
            allowClear={false}
            labelRender={v && v.carId === carId ? () => v.plate : undefined}
            onChange={(id) => {
              setCarId(id ?? undefined);
              if (location.search) navigate(location.pathname, { replace: true });
            }}
          />
          {v && (
            <>
              <Tag color={v.online ? 'green' : 'default'} data-testid="online">
                {v.online ? t('tankMonitor.online') : t('tankMonitor.offline')}
              </Tag>
              <span>
                {t('tankMonitor.seal')}: <Tag color={v.seal === 2 ? 'red' : undefined}>{v.sealText}</Tag>
              </span>
              <Typography.Text type="secondary">
                {t('tankMonitor.levelTime')}: {v.levelTime ?? '—'}
              </Typography.Text>
              <Typography.Text type="secondary">
                {t('tankMonitor.lockTime')}: {v.tankTime ?? '—'}
              </Typography.Text>
              <Tag color={liveState === 'open' ? 'blue' : 'orange'} data-testid="live-state">
                {liveState === 'open' ? t('tankMonitor.live') : t('tankMonitor.polling')}
              </Tag>
              <Link to={`/manager/hydtrend?carId=${v.carId}`}>
                <Button icon={<LineChartOutlined />} size="small">
                  {t('tankMonitor.trend')}
                </Button>
              </Link>
            </>
          )}
        </Space>
      </Card>
      {!carId && (
        <Card variant="borderless">
          <Empty description={t('tankMonitor.pickCar')} />
        </Card>
      )}
      {carId && car.isError && <Alert type="error" showIcon message={t('common.requestFailed')} description={car.error.message} />}
      {carId && car.isLoading && (
        <Card variant="borderless">
          <Spin />
        </Card>
      )}
      {v && (
        <div className="tw-tank-body">
          <div className="tw-tank-main">
            {!v.online && (
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 12 }}
                data-testid="offline-alert"
                message={t('tankMonitor.offlineNote', { time: v.levelTime ?? v.time ?? '—' })}
              />
            )}
            {!v.hasProbes && (
              <Alert type="info" showIcon style={{ marginBottom: 12 }} data-testid="no-probes" message={t('tankMonitor.noProbes')} />
            )}
            {v.compartments.length === 0 ? (
              <Card variant="borderless">
                <Empty description={t('tankMonitor.noCompartments')} />
              </Card>
            ) : (
              <div className="tw-tank-grid">
                {v.compartments.map((c) => (
                  <TankSection key={c.no} c={c} onUse={use} />
                ))}
              </div>
            )}
          </div>
          <div className="tw-tank-side">
            <V20Panel preset={preset} />
          </div>
        </div>
      )}
    </div>
  );
}
