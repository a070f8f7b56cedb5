import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp, ConfigProvider, Form, Input } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { describe, expect, it, vi } from 'vitest';
import '../i18n';
import { FormModal } from './FormModal';

interface Values {
  name: string;
}

const SAVE = /保\s*存/;
// antd validation and messages render asynchronously; on a loaded machine that takes more than findBy's default second.
const SLOW = { timeout: 5000 };

function Harness({ save, onInvalid, onSaved = () => undefined }: { save: (v: Values) => Promise<unknown>; onInvalid?: () => void; onSaved?: () => void }) {
  const [form] = Form.useForm<Values>();
  return (
    <FormModal<Values> form={form} name="probe" title="Probe" isAdd save={save} onClose={() => undefined} onSaved={onSaved} onInvalid={onInvalid}>
      <Form.Item name="name" label="Name" rules={[{ required: true, message: 'name required' }]}>
        <Input />
      </Form.Item>
    </FormModal>
  );
}

function renderModal(props: Parameters<typeof Harness>[0]) {
  render(
    <ConfigProvider locale={zhCN}>
      <AntApp>
        <Harness {...props} />
      </AntApp>
    </ConfigProvider>,
  );
  return screen.getByRole('dialog');
}

describe('FormModal', { timeout: 30_000 }, () => {
  it('calls onInvalid (and not save) when validation fails on save, and marks the field', async () => {
    const save = vi.fn<(v: Values) => Promise<unknown>>().mockResolvedValue(null);
    const onInvalid = vi.fn();
    const dialog = renderModal({ save, onInvalid });
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    expect(await within(dialog).findByText('name required', {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(onInvalid).toHaveBeenCalledTimes(1));
    expect(save).not.toHaveBeenCalled();
  });

  it('does not call onInvalid when the form is valid; saves and reports success', async () => {
    const save = vi.fn<(v: Values) => Promise<unknown>>().mockResolvedValue(null);
    const onInvalid = vi.fn();
    const onSaved = vi.fn();
    const dialog = renderModal({ save, onInvalid, onSaved });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'tank' } });
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    await waitFor(() => expect(save).toHaveBeenCalledWith({ name: 'tank' }));
    expect(await screen.findByText('添加成功', {}, SLOW)).toBeTruthy();
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect(onInvalid).not.toHaveBeenCalled();
  });

  it('without onInvalid an invalid save only marks the fields', async () => {
    const save = vi.fn<(v: Values) => Promise<unknown>>().mockResolvedValue(null);
    const dialog = renderModal({ save });
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    expect(await within(dialog).findByText('name required', {}, SLOW)).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
