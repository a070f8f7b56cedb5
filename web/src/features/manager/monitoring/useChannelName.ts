import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** Loaded channels per car ('error': the load failed). */
export type ChannelsByCar = ReadonlyMap<number, readonly { channelNo: number; name: string }[] | 'error'>;

/** A channel's name from the loaded list, else "通道 n" (the monitoring tree and the video wall). */
export function useChannelName(channels: ChannelsByCar): (carId: number, no: number) => string {
  const { t } = useTranslation();
  return useCallback(
    (carId: number, no: number) => {
      const list = channels.get(carId);
      const c = Array.isArray(list) ? list.find((x) => x.channelNo === no) : undefined;
      return c?.name || t('monitor.channelNo', { n: no });
    },
    [channels, t],
  );
}
