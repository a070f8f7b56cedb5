import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { NoticeTemplate, TemplateKind } from '../../../api/notices';
import '../../../i18n';
import { TemplateForm } from './TemplateForm';

const api = vi.hoisted(() => ({ templateAdd: vi.fn(), templateEdit: vi.fn(), templatePreview: vi.fn() }));
vi.mock('../../../api/notices', () => api);
vi.mock('../../../api/group', () => ({ groupTrees: vi.fn().mockResolvedValue([]) }));

const SAVE = /保\s*存/;
const SLOW = { timeout: 5000 };
const CORE = '运单 {waybillNo}：{depot}→{stops}';
const kinds: TemplateKind[] = [
  { name: 'dispatch', title: '运单调度短信', channel: 'terminal', langs: ['zh-CN'], placeholders: ['plate', 'waybillNo', 'depot', 'stops', 'time'], samples: {}, limit: 200, routeCore: CORE, routeReserve: 120 },
];
const own: NoticeTemplate = {
  id: 8, groupId: 4, groupName: '华南分公司', kind: 'dispatch', kindName: '运单调度短信', channel: 'terminal', lang: 'zh-CN',
  body: `【华南调度】{plate} ${CORE}`, builtin: false, default: CORE, updatedBy: '', updatedAt: '2026-11-26 09:00:00',
};

function renderForm(template?: NoticeTemplate) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ConfigProvider locale={zhCN}>
        <AntApp>
          <TemplateForm template={template} kinds={kinds} onClose={() => undefined} onSaved={() => undefined} />
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>,
  );
  return screen.getByRole('dialog');
}

beforeEach(() => {
  vi.clearAllMocks();
  api.templatePreview.mockResolvedValue({ text: '', length: 0, error: '' });
  api.templateEdit.mockResolvedValue(own);
});

describe('TemplateForm', { timeout: 60_000 }, () => {
  // The edit dialog shows the key as text (no kind or language field), so the form's values hold only
  // the body: the request must take the key from the template, or the server refuses an empty kind.
  it('edits by the template key: group, kind and language come from the template, the body from the form', async () => {
    const dialog = renderForm(own);
    const body = await within(dialog).findByDisplayValue(/华南调度/, {}, SLOW);
    fireEvent.change(body, { target: { value: `【华南调度】{plate} 请于 {time} 前装车。${CORE}` } });
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    await waitFor(() => expect(api.templateEdit).toHaveBeenCalledTimes(1), SLOW);
    expect(api.templateEdit).toHaveBeenCalledWith({ groupId: 4, kind: 'dispatch', lang: 'zh-CN', body: `【华南调度】{plate} 请于 {time} 前装车。${CORE}` });
    expect(api.templateAdd).not.toHaveBeenCalled();
  });
});
