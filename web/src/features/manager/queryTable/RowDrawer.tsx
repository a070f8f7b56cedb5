import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { rawHistoryRecord, type RawFrame, type RawTable, type TableRow } from '../../../api/history';
import { frameSecond } from '../history/format';
import { fieldRows, spacedHex } from '../historyRecordVXE/decoded';
import { DecodedView } from '../historyRecordVXE/DecodedView';
import type { TargetFilters } from '../history/filters';

/** The decoded form of a stored frame: the raw-data call for the frame's second, matched by id. */
function FrameDecoded({ frame, target }: { frame: RawFrame; target: TargetFilters }) {
  const q = useQuery({
    queryKey: ['queryTable.frame', frame.id],
    queryFn: async () => {
      const page = await rawHistoryRecord({ pageNum: 1, pageSize: 500, carId: target.carId, phone: target.carId ? undefined : target.phone, msgId: frame.msgId, ...frameSecond(frame.time) });
      return page.list.find((f) => f.id === frame.id) ?? null;
    },
  });
  if (q.isLoading) return <Spin />;
  return <DecodedView decoded={q.data?.decoded} />;
}

/** A row of the raw store in full: every field, and for a frame its bytes and decoded form. */
export function RowDrawer({ table, row, target, onClose }: { table: RawTable; row: TableRow | null; target: TargetFilters; onClose: () => void }) {
  const { t } = useTranslation();
  const frame = table === 'rawFrames' && row ? (row as RawFrame) : null;
  return (
    <Drawer open={!!row} onClose={onClose} width={920} title={t('queryTable.detail')} destroyOnHidden data-testid="row-drawer">
      {row && (
        <div style={{ display: 'grid', gap: 12 }}>
          <Descriptions size="small" bordered column={2}>
            {fieldRows(row as unknown as Record<string, unknown>)
              .filter((f) => f.key !== 'hex' && f.key !== '_key')
              .map((f) => (
                <Descriptions.Item key={f.key} label={f.key}>
                  {f.value === '' ? '—' : f.value}
                </Descriptions.Item>
              ))}
          </Descriptions>
          {frame && (
            <>
              <Typography.Text strong>{t('queryTable.hex')}</Typography.Text>
              <Typography.Paragraph copyable={{ text: frame.hex }} style={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }} data-testid="drawer-hex">
                {spacedHex(frame.hex)}
              </Typography.Paragraph>
              <FrameDecoded frame={frame} target={target} />
            </>
          )}
        </div>
      )}
    </Drawer>
  );
}
