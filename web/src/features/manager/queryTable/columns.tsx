import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { CommandRow, PositionRow, RawFrame, RawTable, TableRow, TankStateRow } from '../../../api/history';
import { coordText, levelText } from '../history/format';
import { HexText } from '../history/HistoryFields';

/** The columns of each raw-store table. */
export function tableColumns(t: TFunction, table: RawTable): ColumnsType<TableRow> {
  const plate = { title: t('history.plate'), dataIndex: 'plate', key: 'plate', width: 120, render: (v: string) => v || '—' };
  switch (table) {
    case 'positions':
      return [
        { title: t('queryTable.deviceTime'), dataIndex: 'time', key: 'time', width: 170 },
        { title: t('queryTable.receivedAt'), dataIndex: 'receivedAt', key: 'receivedAt', width: 170 },
        plate,
        { title: t('queryTable.position'), key: 'position', width: 210, render: (_, r) => coordText((r as PositionRow).lng, (r as PositionRow).lat) || t('common.notLocated') },
        { title: t('queryTable.speed'), dataIndex: 'speed', key: 'speed', width: 110, render: (v: number) => v.toFixed(1) },
        { title: t('queryTable.direction'), dataIndex: 'direction', key: 'direction', width: 90 },
        { title: t('queryTable.alarms'), dataIndex: 'alarms', key: 'alarms', ellipsis: true, render: (v: string[]) => v.join(t('common.listSeparator')) || '—' },
        { title: t('queryTable.states'), dataIndex: 'states', key: 'states', ellipsis: true, render: (v: string[]) => v.join(t('common.listSeparator')) },
      ] as ColumnsType<TableRow>;
    case 'tankStates':
      return [
        { title: t('queryTable.deviceTime'), dataIndex: 'time', key: 'time', width: 170 },
        plate,
        { title: t('queryTable.lockState'), dataIndex: 'lockState', key: 'lockState', render: (v: string) => (v ? <HexText hex={v} width={300} /> : '—') },
        { title: t('queryTable.seal'), dataIndex: 'sealName', key: 'sealName', width: 110 },
        {
          title: t('queryTable.levels'),
          dataIndex: 'levels',
          key: 'levels',
          render: (v: TankStateRow['levels']) => v.map((l) => <div key={l.compartment}>{levelText(t, l)}</div>),
        },
        { title: t('queryTable.help'), dataIndex: 'helpName', key: 'helpName', width: 110 },
      ] as ColumnsType<TableRow>;
    case 'rawFrames':
      return [
        { title: t('queryTable.receivedAt'), dataIndex: 'time', key: 'time', width: 170 },
        plate,
        { title: t('queryTable.phone'), dataIndex: 'phone', key: 'phone', width: 130 },
        { title: t('queryTable.message'), key: 'msg', width: 200, render: (_, r) => `${(r as RawFrame).msgId} ${(r as RawFrame).msgName}` },
        { title: t('queryTable.serial'), dataIndex: 'serial', key: 'serial', width: 80 },
        { title: t('queryTable.direction2'), dataIndex: 'direction', key: 'direction', width: 80, render: (d: string) => t(`rawData.${d}`) },
        { title: t('queryTable.hex'), dataIndex: 'hex', key: 'hex', render: (v: string) => <HexText hex={v} width={320} /> },
      ] as ColumnsType<TableRow>;
    case 'commands':
      return [
        { title: t('queryTable.createdAt'), dataIndex: 'createdAt', key: 'createdAt', width: 170 },
        plate,
        { title: t('queryTable.phone'), dataIndex: 'phone', key: 'phone', width: 130 },
        { title: t('queryTable.kind'), dataIndex: 'kind', key: 'kind', width: 110, render: (k: string) => t(`queryTable.kind_${k}`, { defaultValue: k }) },
        { title: t('queryTable.message'), dataIndex: 'msgId', key: 'msgId', width: 90 },
        { title: t('queryTable.serial'), dataIndex: 'serial', key: 'serial', width: 80 },
        {
          title: t('queryTable.status'),
          dataIndex: 'status',
          key: 'status',
          width: 110,
          render: (s: CommandRow['status']) => <Tag color={s === 'ok' ? 'green' : s === 'pending' ? 'blue' : 'red'}>{t(`queryTable.status_${s}`, { defaultValue: s })}</Tag>,
        },
        { title: t('queryTable.reply'), dataIndex: 'reply', key: 'reply', ellipsis: true },
        { title: t('queryTable.doneAt'), dataIndex: 'doneAt', key: 'doneAt', width: 170, render: (v: string | null) => v ?? '—' },
      ] as ColumnsType<TableRow>;
  }
}

/** A stable row key for any table's row. */
export function rowKeyOf(table: RawTable, r: TableRow): string {
  switch (table) {
    case 'rawFrames':
    case 'commands':
      return String((r as RawFrame | CommandRow).id);
    case 'positions':
      return `${r.carId}/${(r as PositionRow).time}/${(r as PositionRow).terminalId}`;
    case 'tankStates':
      return `${r.carId}/${(r as TankStateRow).time}/${(r as TankStateRow).terminalId}`;
  }
}
