import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Group } from '../../../api/types';
import { renderPage, testSession } from '../testing';
import UpdateLogoPage from '.';

const top: Group = { id: 1, parentId: null, name: '总部', code: 'G1', contact: '', phone: '', address: '', remark: '', title: '旧标题', logo: '', theme: 'escort', children: [] };
const api = vi.hoisted(() => ({ groupTrees: vi.fn(), editImgAndTittle: vi.fn() }));
vi.mock('../../../api/group', () => api);
const session = vi.hoisted(() => ({ refreshSession: vi.fn() }));
vi.mock('../../../app/session', () => session);

beforeEach(() => {
  api.groupTrees.mockReset();
  api.editImgAndTittle.mockReset().mockResolvedValue(top);
  session.refreshSession.mockReset().mockResolvedValue(null);
});

describe('updateLogo page', { timeout: 60_000 }, () => {
  it('edits the top group and refreshes the header', async () => {
    api.groupTrees.mockResolvedValue([top]);
    renderPage(<UpdateLogoPage />, 'updateLogo', ['edit']);
    const title = (await screen.findByLabelText('平台标题')) as HTMLInputElement;
    expect(title.value).toBe('旧标题');
    fireEvent.change(title, { target: { value: '新标题' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.editImgAndTittle).toHaveBeenCalledWith({ id: 1, title: '新标题', theme: 'escort' }));
    await waitFor(() => expect(session.refreshSession).toHaveBeenCalled());
  });

  it("a subsidiary's user brands their own group, never the platform's top group", async () => {
    const east: Group = { ...top, id: 5, parentId: 1, name: '华东分公司', title: '华东标题', theme: '' };
    api.groupTrees.mockResolvedValue([east]);
    api.editImgAndTittle.mockResolvedValue(east);
    renderPage(<UpdateLogoPage />, 'updateLogo', ['edit'], { ...testSession, groupId: 5, topGroupId: 1, groupName: '华东分公司' });
    const title = (await screen.findByLabelText('平台标题')) as HTMLInputElement;
    expect(title.value).toBe('华东标题');
    expect(screen.getByText(/华东分公司/)).toBeTruthy();
    fireEvent.change(title, { target: { value: '华东平台' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.editImgAndTittle).toHaveBeenCalledWith({ id: 5, title: '华东平台', theme: '' }));
    expect(api.editImgAndTittle).not.toHaveBeenCalledWith(expect.objectContaining({ id: 1 }));
  });

  it('falls back to the session when the tree cannot be read; no save without permission', async () => {
    api.groupTrees.mockRejectedValue(new Error('403'));
    renderPage(<UpdateLogoPage />, 'updateLogo', [], { ...testSession, groupId: 5, topGroupId: 1, indexTitle: '会话标题' });
    expect(((await screen.findByLabelText('平台标题')) as HTMLInputElement).value).toBe('会话标题');
    expect(screen.queryByRole('button', { name: /保\s*存/ })).toBeNull();
  });
});
