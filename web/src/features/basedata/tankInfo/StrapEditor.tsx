import { DeleteOutlined, DownloadOutlined, PlusOutlined, SnippetsOutlined, UploadOutlined, VerticalAlignBottomOutlined } from '@ant-design/icons';
import { Alert, App, Button, Empty, Input, InputNumber, Modal, Space, Table, Tooltip, Typography } from 'antd';
import { useMemo, useRef, useState, type ClipboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { exportFile } from '../../../api/export';
import { importStrap, STRAP_EXPORT, type ImportResult, type StrapRef } from '../../../api/tankInfo';
import { AuthButton } from '../../../components/AuthButton';
import { capacityWarning, checkRows, parsePaste, rowAfter, tableCapacity, type EditRow, type RowError } from './strap';
import { StrapChart } from './StrapChart';

export interface StrapEditorProps {
  rows: EditRow[];
  onChange: (rows: EditRow[]) => void;
  /** Nominal capacity (L) to compare the table's top with. */
  nominal?: number | null;
  /** The stored table, for export (absent: nothing stored yet). */
  exportRef?: StrapRef;
  /** The stored table differs from the rows (export would not give what is shown). */
  dirty?: boolean;
  readOnly?: boolean;
}

const PAGE = 50;

/** The message of a row error in the caller's language ("第3行：高度必须严格递增"). */
export function useRowMessage() {
  const { t } = useTranslation();
  return (e: RowError) => (e.row === 0 ? t('tankInfo.tableError', { reason: t(`tankInfo.reason.${e.reason}`) }) : t('tankInfo.rowError', { row: e.row, reason: t(`tankInfo.reason.${e.reason}`) }));
}

/**
 * A strapping table editor: the rows (add, insert, remove, edit), pasting two columns from a
 * spreadsheet, xlsx import with a preview and export, the row errors as tank.Strap.Validate gives them,
 * the capacity, and the curve.
 */
export function StrapEditor({ rows, onChange, nominal, exportRef, dirty, readOnly }: StrapEditorProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const message = useRowMessage();
  const errors = useMemo(() => checkRows(rows), [rows]);
  const badRows = useMemo(() => new Set(errors.map((e) => e.row)), [errors]);
  const top = tableCapacity(rows);
  const [page, setPage] = useState(1);
  const [paste, setPaste] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [importing, setImporting] = useState(false);
  const file = useRef<HTMLInputElement>(null);

  const set = (i: number, field: 'height' | 'volume', v: number | null) => onChange(rows.map((r, j) => (j === i ? { ...r, [field]: v } : r)));
  const insertAfter = (i: number) => {
    const next = [...rows];
    next.splice(i + 1, 0, rowAfter(rows, i));
    onChange(next);
    setPage(Math.floor((i + 1) / PAGE) + 1);
  };
  const remove = (i: number) => onChange(rows.filter((_, j) => j !== i));

  const pasted = paste !== null ? parsePaste(paste) : null;
  const onPaste = (e: ClipboardEvent<HTMLDivElement>) => {
    if (readOnly) return;
    const text = e.clipboardData.getData('text/plain');
    // a single number pasted into a cell stays a normal paste; lines or two columns open the paste preview
    if (/\n/.test(text.trim()) || /\t/.test(text)) {
      e.preventDefault();
      setPaste(text);
    }
  };

  const doImport = async (f: File) => {
    setImporting(true);
    try {
      setPreview(await importStrap(f));
    } catch {
      // shown by the client
    } finally {
      setImporting(false);
      if (file.current) file.current.value = '';
    }
  };

  const columns = [
    { title: '#', key: 'i', width: 56, render: (_: unknown, __: EditRow, i: number) => (page - 1) * PAGE + i + 1 },
    {
      title: t('tankInfo.strapHeight'),
      key: 'height',
      render: (_: unknown, r: EditRow, i: number) => {
        const at = (page - 1) * PAGE + i;
        return (
          <InputNumber
            size="small"
            value={r.height}
            min={0}
            style={{ width: '100%' }}
            disabled={readOnly}
            status={badRows.has(at + 1) ? 'error' : undefined}
            onChange={(v) => set(at, 'height', typeof v === 'number' ? v : null)}
            aria-label={t('tankInfo.cellHeight', { row: at + 1 })}
            data-testid={`strap-h-${at + 1}`}
          />
        );
      },
    },
    {
      title: t('tankInfo.strapVolume'),
      key: 'volume',
      render: (_: unknown, r: EditRow, i: number) => {
        const at = (page - 1) * PAGE + i;
        return (
          <InputNumber
            size="small"
            value={r.volume}
            min={0}
            style={{ width: '100%' }}
            disabled={readOnly}
            status={badRows.has(at + 1) ? 'error' : undefined}
            onChange={(v) => set(at, 'volume', typeof v === 'number' ? v : null)}
            aria-label={t('tankInfo.cellVolume', { row: at + 1 })}
            data-testid={`strap-v-${at + 1}`}
          />
        );
      },
    },
    ...(readOnly
      ? []
      : [
          {
            title: '',
            key: 'ops',
            width: 76,
            render: (_: unknown, __: EditRow, i: number) => {
              const at = (page - 1) * PAGE + i;
              return (
                <Space size={0}>
                  <Tooltip title={t('tankInfo.insertRow')}>
                    <Button type="text" size="small" icon={<VerticalAlignBottomOutlined />} onClick={() => insertAfter(at)} aria-label={t('tankInfo.insertRow')} />
                  </Tooltip>
                  <Tooltip title={t('tankInfo.removeRow')}>
                    <Button type="text" size="small" danger icon={<DeleteOutlined />} onClick={() => remove(at)} aria-label={t('tankInfo.removeRow')} />
                  </Tooltip>
                </Space>
              );
            },
          },
        ]),
  ];

  return (
    <div className="tw-strap-editor" onPaste={onPaste} data-testid="strap-editor">
      <div className="tw-strap-toolbar">
        <Space wrap size={6}>
          {!readOnly && (
            <>
              <Button size="small" icon={<PlusOutlined />} onClick={() => insertAfter(rows.length - 1)} data-testid="strap-add">
                {t('tankInfo.addRow')}
              </Button>
              <Button size="small" icon={<SnippetsOutlined />} onClick={() => setPaste('')} data-testid="strap-paste">
                {t('tankInfo.paste')}
              </Button>
              <AuthButton code="import">
                <Button size="small" icon={<UploadOutlined />} loading={importing} onClick={() => file.current?.click()} data-testid="strap-import">
                  {t('tankInfo.import')}
                </Button>
                <input
                  ref={file}
                  type="file"
                  accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                  style={{ display: 'none' }}
                  data-testid="strap-file"
                  onChange={(e) => {
                    const f = e.target.files?.[0];
                    if (f) void doImport(f);
                  }}
                />
              </AuthButton>
            </>
          )}
          <AuthButton code="export">
            <Tooltip title={!exportRef ? t('tankInfo.exportNotSaved') : dirty ? t('tankInfo.exportDirty') : undefined}>
              <Button
                size="small"
                icon={<DownloadOutlined />}
                disabled={!exportRef}
                onClick={() => exportRef && void exportFile({ url: STRAP_EXPORT, method: 'POST', data: exportRef }).catch(() => undefined)}
                data-testid="strap-export"
              >
                {t('tankInfo.export')}
              </Button>
            </Tooltip>
          </AuthButton>
          {!readOnly && rows.length > 0 && (
            <Button
              size="small"
              danger
              onClick={() => modal.confirm({ title: t('tankInfo.clearConfirm'), okText: t('common.ok'), cancelText: t('common.cancel'), onOk: () => onChange([]) })}
            >
              {t('tankInfo.clear')}
            </Button>
          )}
        </Space>
        <span className="tw-strap-capacity" data-testid="strap-capacity">
          {t('tankInfo.rowsCount', { n: rows.length })}
          {top > 0 && <> · {t('tankInfo.tableCapacityIs', { v: top.toLocaleString() })}</>}
        </span>
      </div>
      {errors.length > 0 && (
        <Alert
          type="error"
          showIcon
          style={{ margin: '8px 0' }}
          data-testid="strap-errors"
          message={message(errors[0])}
          description={errors.length > 1 ? errors.slice(1, 4).map(message).join('；') + (errors.length > 4 ? ' ' + t('tankInfo.moreErrors', { n: errors.length - 4 }) : '') : undefined}
        />
      )}
      {capacityWarning(top, nominal) && (
        <Alert type="warning" showIcon style={{ margin: '8px 0' }} data-testid="strap-capacity-warning" message={t('tankInfo.capacityWarning', { top: top.toLocaleString(), nominal: (nominal ?? 0).toLocaleString() })} />
      )}
      <div className="tw-strap-body">
        <div className="tw-strap-table">
          <Table<EditRow>
            size="small"
            rowKey={(_, i) => String(i)}
            columns={columns}
            dataSource={rows.slice((page - 1) * PAGE, page * PAGE)}
            pagination={rows.length > PAGE ? { current: page, pageSize: PAGE, total: rows.length, onChange: setPage, size: 'small', showSizeChanger: false } : false}
            scroll={{ y: 380 }}
            rowClassName={(_, i) => (badRows.has((page - 1) * PAGE + i + 1) ? 'tw-strap-bad' : '')}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={readOnly ? t('tankInfo.noTable') : t('tankInfo.noTableHint')} /> }}
          />
        </div>
        <div className={rows.length > 0 ? "tw-strap-chart" : "tw-strap-chart tw-strap-chart-empty"}>
          {rows.length > 0 ? <StrapChart rows={rows} errors={errors} nominal={nominal} height={420} /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('tankInfo.noCurve')} />}
        </div>
      </div>

      <Modal
        open={paste !== null}
        title={t('tankInfo.pasteTitle')}
        onCancel={() => setPaste(null)}
        width={560}
        destroyOnHidden
        footer={
          <Space>
            <Button onClick={() => setPaste(null)}>{t('common.cancel')}</Button>
            <Button
              disabled={!pasted || pasted.rows.length === 0 || pasted.badLines.length > 0 || rows.length === 0}
              onClick={() => {
                onChange([...rows, ...(pasted?.rows ?? [])]);
                setPaste(null);
              }}
            >
              {t('tankInfo.append')}
            </Button>
            <Button
              type="primary"
              data-testid="paste-replace"
              disabled={!pasted || pasted.rows.length === 0 || pasted.badLines.length > 0}
              onClick={() => {
                onChange(pasted?.rows ?? []);
                setPage(1);
                setPaste(null);
              }}
            >
              {t('tankInfo.replace')}
            </Button>
          </Space>
        }
      >
        <Typography.Paragraph type="secondary">{t('tankInfo.pasteHint')}</Typography.Paragraph>
        <Input.TextArea rows={8} value={paste ?? ''} onChange={(e) => setPaste(e.target.value)} data-testid="paste-text" placeholder={'0\t0\n20\t12.5\n40\t35.1'} />
        {pasted && (pasted.rows.length > 0 || pasted.badLines.length > 0) && (
          <Alert
            style={{ marginTop: 8 }}
            type={pasted.badLines.length ? 'error' : 'info'}
            showIcon
            message={
              pasted.badLines.length
                ? t('tankInfo.pasteBad', { lines: pasted.badLines.slice(0, 10).join(t('common.listSeparator')) })
                : t('tankInfo.pasteOk', { n: pasted.rows.length }) + (pasted.header ? ' ' + t('tankInfo.headerSkipped') : '')
            }
          />
        )}
      </Modal>

      <Modal
        open={preview !== null}
        title={t('tankInfo.importTitle')}
        onCancel={() => setPreview(null)}
        width={560}
        destroyOnHidden
        okText={t('tankInfo.replace')}
        cancelText={t('common.cancel')}
        okButtonProps={{ disabled: !preview || preview.errors.length > 0 || preview.rows.length === 0, ...({ 'data-testid': 'import-apply' } as object) }}
        onOk={() => {
          onChange(preview?.rows.map((r) => ({ height: r.height, volume: r.volume })) ?? []);
          setPage(1);
          setPreview(null);
        }}
      >
        {preview && preview.errors.length > 0 ? (
          <Alert
            type="error"
            showIcon
            data-testid="import-errors"
            message={t('tankInfo.importBad', { n: preview.errors.length })}
            description={
              <ul style={{ margin: 0, paddingLeft: 18 }}>
                {preview.errors.map((e) => (
                  <li key={`${e.row}-${e.reason}`}>{e.message}</li>
                ))}
              </ul>
            }
          />
        ) : (
          preview && (
            <>
              <Typography.Paragraph>{t('tankInfo.importOk', { n: preview.rows.length, top: (preview.rows[preview.rows.length - 1]?.volume ?? 0).toLocaleString() })}</Typography.Paragraph>
              <StrapChart rows={preview.rows} errors={[]} nominal={nominal} height={200} />
            </>
          )
        )}
      </Modal>
    </div>
  );
}
