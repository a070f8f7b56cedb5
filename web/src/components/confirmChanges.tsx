import type { App } from 'antd';
import { Typography } from 'antd';
import type { ReactNode } from 'react';
import i18n from '../i18n';

type AppApi = ReturnType<typeof App.useApp>;

export interface ConfirmChangesOptions {
  title: string;
  /** Where the change applies, shown above the lines. */
  lead?: ReactNode;
  /** One line per changed value ("超速: 报警级别 III级 → II级"). */
  lines: string[];
  /** Shown instead of the lines when there are none (saving still makes the settings explicit). */
  empty?: string;
  /** Shown under the lines, secondary. */
  note?: ReactNode;
  testId?: string;
  onOk: () => Promise<unknown> | void;
}

/**
 * A save of settings that reach further than the page (alarm types for the whole platform, a control
 * mode for a group's subtree): the confirmation names each change before anything is stored.
 */
export function confirmChanges(modal: AppApi['modal'], o: ConfirmChangesOptions): void {
  modal.confirm({
    title: o.title,
    content: (
      <div data-testid={o.testId}>
        {o.lead && <Typography.Paragraph style={{ marginBottom: 8 }}>{o.lead}</Typography.Paragraph>}
        {o.lines.length ? o.lines.map((l) => <div key={l}>{l}</div>) : o.empty && <div>{o.empty}</div>}
        {o.note && (
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
            {o.note}
          </Typography.Paragraph>
        )}
      </div>
    ),
    okText: i18n.t('common.save'),
    cancelText: i18n.t('common.cancel'),
    onOk: o.onOk,
  });
}
