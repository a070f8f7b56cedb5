import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { describe, expect, it, vi } from 'vitest';
import '../i18n';
import { XlsxImportModal, type XlsxImportResult } from './XlsxImportModal';

interface Row {
  row: number;
  serial: string;
}

const SLOW = { timeout: 5000 };

function open(props: { preview: (f: File) => Promise<XlsxImportResult<Row>>; save: (f: File) => Promise<XlsxImportResult<Row>>; closeOnSaved?: boolean }) {
  const onClose = vi.fn();
  const onSaved = vi.fn();
  render(
    <ConfigProvider locale={zhCN}>
      <AntApp>
        <XlsxImportModal<Row, XlsxImportResult<Row>>
          title="导入锁"
          width={960}
          rowKey="row"
          columns={[
            { title: '行', dataIndex: 'row' },
            { title: '锁编号', dataIndex: 'serial' },
          ]}
          drop="拖入文件"
          hint="仅 xlsx"
          errorsTitle={(n) => `${n} 行有错`}
          confirm={(p) => `导入 ${p?.rows.length ?? 0} 行`}
          imported={(n) => `已导入 ${n} 行`}
          onClose={onClose}
          onSaved={onSaved}
          {...props}
        />
      </AntApp>
    </ConfigProvider>,
  );
  return { onClose, onSaved };
}

const drop = (name = 'locks.xlsx') => {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File(['x'], name)] } });
};

describe('XlsxImportModal', { timeout: 30_000 }, () => {
  it('previews a dropped file with its row errors and saves nothing while one is wrong', async () => {
    const preview = vi.fn().mockResolvedValue({ rows: [{ row: 2, serial: 'TW-1' }, { row: 3, serial: '' }], errors: [{ row: 3, message: '第 3 行：锁编号必填' }], saved: 0 });
    const save = vi.fn();
    open({ preview, save });
    expect(screen.getByText('拖入文件')).toBeTruthy();
    drop();
    expect(await screen.findByText('1 行有错', {}, SLOW)).toBeTruthy();
    expect(within(screen.getByTestId('import-errors')).getByText('第 3 行：锁编号必填')).toBeTruthy();
    expect(screen.getByText('TW-1')).toBeTruthy();
    expect(screen.getByText('locks.xlsx')).toBeTruthy();
    expect(preview).toHaveBeenCalledTimes(1);
    expect(screen.getByText('导入 2 行').closest('button')!.hasAttribute('disabled')).toBe(true);
    expect(save).not.toHaveBeenCalled();
  });

  it('saves a clean file, tells the page and closes when asked to', async () => {
    const rows = [{ row: 2, serial: 'TW-1' }];
    const preview = vi.fn().mockResolvedValue({ rows, errors: [], saved: 0 });
    const save = vi.fn().mockResolvedValue({ rows, errors: [], saved: 1 });
    const { onClose, onSaved } = open({ preview, save, closeOnSaved: true });
    drop();
    const ok = (await screen.findByText('导入 1 行', {}, SLOW)).closest('button')!;
    await waitFor(() => expect(ok.hasAttribute('disabled')).toBe(false), SLOW);
    fireEvent.click(ok);
    expect(await screen.findByText('已导入 1 行', {}, SLOW)).toBeTruthy();
    expect(save).toHaveBeenCalledTimes(1);
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('stays open after saving when the page decides', async () => {
    const rows = [{ row: 2, serial: 'TW-1' }];
    const { onClose, onSaved } = open({ preview: vi.fn().mockResolvedValue({ rows, errors: [], saved: 0 }), save: vi.fn().mockResolvedValue({ rows, errors: [], saved: 1 }) });
    drop();
    const ok = (await screen.findByText('导入 1 行', {}, SLOW)).closest('button')!;
    await waitFor(() => expect(ok.hasAttribute('disabled')).toBe(false), SLOW);
    fireEvent.click(ok);
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1), SLOW);
    expect(onClose).not.toHaveBeenCalled();
  });
});
