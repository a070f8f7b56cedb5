import type { App } from 'antd';
import i18n from '../i18n';
import { BusinessError } from '../api/client';

type AppApi = ReturnType<typeof App.useApp>;

export interface ConfirmDeleteOptions {
  /** The delete call; it should not show its own warning (pass show=false to call()). */
  run: () => Promise<unknown>;
  /** Called after a successful delete (e.g. refetch). */
  onDone?: () => void;
  /** Ask about a binding instead of data. */
  binding?: boolean;
}

/**
 * Spec §8 delete helper: asks '确定要删除该数据吗？'; success → '删除成功'; failure → an error modal
 * with the server message after 0.5 s.
 */
export function confirmDelete(api: Pick<AppApi, 'modal' | 'message'>, opts: ConfirmDeleteOptions): void {
  api.modal.confirm({
    title: i18n.t('common.prompt'),
    content: i18n.t(opts.binding ? 'common.confirmDeleteBinding' : 'common.confirmDelete'),
    okText: i18n.t('common.ok'),
    cancelText: i18n.t('common.cancel'),
    okButtonProps: { danger: true },
    onOk: async () => {
      try {
        await opts.run();
        void api.message.success(i18n.t('common.deleteSuccess'));
        opts.onDone?.();
      } catch (e) {
        const text = e instanceof BusinessError ? e.message : (e as Error)?.message;
        window.setTimeout(() => {
          api.modal.error({ title: i18n.t('delete.failed'), content: text || i18n.t('common.requestFailed'), okText: i18n.t('common.ok') });
        }, 500);
      }
    },
  });
}
