import { App, Button, Descriptions, Space, Spin, Tag, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEAL_IGNORE, dealHelp, isUnlock, type HelpRequest } from '../../../api/help';
import { isValidCoords } from '../../../lib/coords';

const HelpMap = lazy(() => import('./HelpMap'));

export interface HelpRequestViewProps {
  request: HelpRequest;
  /** Closes the surrounding dialog. */
  onClose: () => void;
  /** After a deal call: true when the server carried it out. */
  onDealt?: (ok: boolean) => void;
}

/**
 * The help-request detail (spec §2): the vehicle on a map (common.notLocated without a position), request type,
 * time, plate, speed and address, and the answers cancel, unlock-or-lock (the request's own type) and
 * ignore. After answering the dialog closes and a common.prompt dialog says common.operationSuccess or the server's message.
 */
export function HelpRequestView({ request, onClose, onDealt }: HelpRequestViewProps) {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const [busy, setBusy] = useState<number | null>(null);
  const unlock = isUnlock(request.requestType);
  const located = isValidCoords(request.lng, request.lat);

  const deal = async (dealType: number) => {
    setBusy(dealType);
    let ok = false;
    let message = '';
    try {
      await dealHelp(request.id, dealType);
      ok = true;
    } catch (e) {
      message = e instanceof Error && e.message ? e.message : t('common.requestFailed');
    }
    setBusy(null);
    onClose();
    if (ok) modal.success({ title: t('common.prompt'), content: t('common.operationSuccess'), okText: t('common.ok') });
    else modal.warning({ title: t('common.prompt'), content: message, okText: t('common.ok') });
    onDealt?.(ok);
  };

  return (
    <div className="tw-help-view" data-testid="help-view">
      <div className="tw-help-map" style={{ height: 260, marginBottom: 12, background: '#f5f5f5', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        {located ? (
          <Suspense fallback={<Spin />}>
            <div style={{ width: '100%', height: '100%' }}>
              <HelpMap lng={Number(request.lng)} lat={Number(request.lat)} label={request.carNumber} />
            </div>
          </Suspense>
        ) : (
          <Typography.Text type="secondary" data-testid="help-not-located" style={{ fontSize: 18 }}>
            {t('common.notLocated')}
          </Typography.Text>
        )}
      </div>
      <Descriptions column={2} size="small" bordered>
        <Descriptions.Item label={t('help.requestType')}>
          <Tag color={unlock ? 'orange' : 'blue'}>{unlock ? t('help.type.unlock') : t('help.type.lock')}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('help.requestTime')}>{request.requestTime}</Descriptions.Item>
        <Descriptions.Item label={t('help.carNumber')}>{request.carNumber}</Descriptions.Item>
        <Descriptions.Item label={t('help.speed')}>{t('help.kmh', { v: request.speed === '' ? 0 : request.speed })}</Descriptions.Item>
        <Descriptions.Item label={t('help.address')} span={2}>
          {request.addresses?.[i18n.language] || request.address || (located ? '' : t('common.notLocated'))}
        </Descriptions.Item>
      </Descriptions>
      <Space style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
        <Button onClick={onClose} disabled={busy !== null}>
          {t('common.cancel')}
        </Button>
        <Button type="primary" loading={busy === request.requestType} disabled={busy !== null} onClick={() => void deal(Number(request.requestType))}>
          {unlock ? t('help.unlock') : t('help.lock')}
        </Button>
        <Button danger loading={busy === DEAL_IGNORE} disabled={busy !== null} onClick={() => void deal(DEAL_IGNORE)}>
          {t('help.ignore')}
        </Button>
      </Space>
    </div>
  );
}
