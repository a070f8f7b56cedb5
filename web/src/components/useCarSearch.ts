import { useQuery } from '@tanstack/react-query';
import { createElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spin } from 'antd';
import { findCars } from '../api/monitor';

/**
 * The car picker of the full-screen replay pages (trackReplaying, videoReplaying, videoReplaying2): the
 * live findCars list searched by plate, narrowed to the cockpit's `code` when the page was opened from a
 * count. `selectProps` go on an antd Select beside the page's own value, onChange and test id; `cars` is
 * the query, for pages that name the chosen car.
 */
export function useCarSearch(page: string, code: number | undefined) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const cars = useQuery({
    queryKey: [page, 'cars', search, code],
    queryFn: () => findCars({ carNumber: search || undefined, code, pageNum: 1, pageSize: 30 }),
  });
  const selectProps = {
    showSearch: true,
    allowClear: true,
    placeholder: t('track.pickCar'),
    onSearch: setSearch,
    filterOption: false,
    loading: cars.isFetching,
    notFoundContent: cars.isFetching ? createElement(Spin, { size: 'small' }) : t('track.noCars'),
    options: (cars.data?.list ?? []).map((c) => ({ value: c.carId, label: `${c.plate} · ${c.groupName}` })),
  } as const;
  return { cars, selectProps };
}
