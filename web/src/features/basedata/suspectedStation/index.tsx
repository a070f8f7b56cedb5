import { App, Button, Form, InputNumber, Space, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusinessError } from '../../../api/client';
import { dismissSuspect, pageSuspects, type Suspect, type SuspectQuery } from '../../../api/station';
import { useAppStore } from '../../../app/store';
import { AuthButton } from '../../../components/AuthButton';
import { buttonsForPath } from '../../../lib/buttonPermission';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { StationForm, type StationFormTarget } from '../station/StationForm';

type SuspectFilters = Omit<SuspectQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

/**
 * 疑似站点: places where valves were opened away from every station, most often first. An operator
 * promotes one to a station (the station form, prefilled with a circle at its centre) or dismisses it.
 */
export default function SuspectedStationPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [promoting, setPromoting] = useState<StationFormTarget | null>(null);
  // Promoting adds a station: it needs the station page's add button (the server checks it too).
  const canPromote = useAppStore((st) => buttonsForPath(st.authMenu, '/basedata/station').includes('station-add'));

  const dismiss = (s: Suspect, reload: () => void) =>
    modal.confirm({
      title: t('common.prompt'),
      content: t('suspectedStation.confirmDismiss'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await dismissSuspect(s.id);
          void message.success(t('suspectedStation.dismissed'));
          reload();
        } catch (e) {
          const text = e instanceof BusinessError ? e.message : '';
          modal.error({ title: t('common.prompt'), content: text || t('common.requestFailed'), okText: t('common.ok') });
        }
      },
    });

  return (
    <ListPage<Suspect, SuspectFilters>
      queryKey="suspectedStation"
      rowKey="id"
      fetch={pageSuspects}
      tableProps={{ scroll: { x: 1500 } }}
      filters={
        <>
          <Form.Item name="groupId" label={t('suspectedStation.group')}>
            <GroupSelect filter />
          </Form.Item>
          <Form.Item name="minCount" label={t('suspectedStation.minCount')}>
            <InputNumber min={1} precision={0} style={{ width: 100 }} />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) =>
        promoting && (
          <StationForm
            target={promoting}
            onClose={() => setPromoting(null)}
            onSaved={() => {
              setPromoting(null);
              reload();
            }}
          />
        )
      }
      columns={({ reload }) => [
        { title: t('suspectedStation.count'), dataIndex: 'count', key: 'count', width: 90 },
        { title: t('suspectedStation.carCount'), dataIndex: 'carCount', key: 'carCount', width: 90 },
        {
          title: t('suspectedStation.cars'),
          dataIndex: 'cars',
          key: 'cars',
          width: 200,
          ellipsis: { showTitle: false },
          render: (cars: string[]) => (
            <Tooltip title={cars.join(t('common.listSeparator'))}>
              <span>{cars.join(t('common.listSeparator'))}</span>
            </Tooltip>
          ),
        },
        { title: t('suspectedStation.address'), dataIndex: 'address', key: 'address', width: 260, ellipsis: true, render: (v: string) => v || '—' },
        { title: t('suspectedStation.position'), key: 'pos', width: 190, render: (_, s) => `${s.lng.toFixed(5)}, ${s.lat.toFixed(5)}` },
        { title: t('suspectedStation.group'), dataIndex: 'groupName', key: 'groupName', width: 130, ellipsis: true },
        { title: t('suspectedStation.firstTime'), dataIndex: 'firstTime', key: 'firstTime', width: 170 },
        { title: t('suspectedStation.lastTime'), dataIndex: 'lastTime', key: 'lastTime', width: 170 },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 170,
          render: (_, s) => (
            <Space size={0}>
              {canPromote && (
                <Button
                  type="link"
                  size="small"
                  onClick={() => setPromoting({ mode: 'promote', suspectId: s.id, groupId: s.groupId, lng: s.lng, lat: s.lat, address: s.address })}
                >
                  {t('suspectedStation.promote')}
                </Button>
              )}
              <AuthButton code="dismiss">
                <Button type="link" size="small" danger onClick={() => dismiss(s, reload)}>
                  {t('menu.suspectedStation-dismiss')}
                </Button>
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
