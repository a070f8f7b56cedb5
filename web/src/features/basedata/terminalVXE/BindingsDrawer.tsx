import { useQuery } from '@tanstack/react-query';
import { Drawer, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { terminalBindings, type Binding, type Terminal } from '../../../api/fleet';

const muted = (v: string | null | undefined) => v || <span className="tw-muted">—</span>;

/** A terminal's binding history, newest first. */
export function BindingsDrawer({ terminal, onClose }: { terminal: Terminal; onClose: () => void }) {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['terminalBindings', terminal.id], queryFn: () => terminalBindings(terminal.id), gcTime: 0 });
  return (
    <Drawer open width={720} title={`${t('terminal.history')} - ${terminal.phone}`} onClose={onClose} destroyOnHidden>
      <Table<Binding>
        size="small"
        rowKey="id"
        loading={q.isLoading}
        dataSource={q.data ?? []}
        pagination={false}
        locale={{ emptyText: t('common.empty') }}
        columns={[
          { title: t('terminal.car'), dataIndex: 'plate', render: muted },
          { title: t('terminal.sim'), dataIndex: 'msisdn', render: muted },
          { title: t('terminal.boundAt'), dataIndex: 'boundAt', width: 165 },
          { title: t('terminal.unboundAt'), dataIndex: 'unboundAt', width: 165, render: (v: string | null) => v ?? <Tag color="success">{t('terminal.current')}</Tag> },
          { title: t('terminal.operator'), dataIndex: 'userName', width: 100, render: muted },
        ]}
      />
    </Drawer>
  );
}
