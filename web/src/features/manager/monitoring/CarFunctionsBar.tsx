import { LockOutlined, UnlockOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { carFunctions } from '../../../api/equipment';
import { sendLockCommand } from '../../../api/lockEvents';
import { useAppStore } from '../../../app/store';
import { hasButton } from '../../../lib/buttonPermission';
import { carActions } from '../../../lib/carFunctions';

/**
 * The car's actions in the detail card: live video and remote lock / unlock, shown as the car's device
 * models allow (equipmentFun, D63). A car none of whose devices has a model, or whose functions cannot be
 * read, shows both, as before models existed.
 */
export function CarFunctionsBar({ carId, plate }: { carId: number; plate: string }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const q = useQuery({ queryKey: ['equipment', 'carFunctions', carId], queryFn: () => carFunctions(carId), staleTime: 60_000, retry: false });
  const f = q.data;
  const a = carActions(f);
  // the remote lock button of blueLockRecord (04-22-01), asked by its full name: this card is not that page
  const canCommand = hasButton(useAppStore((s) => s.setMenu), '', 'blueLockRecord-command');
  const send = (action: 'unlock' | 'lock') =>
    modal.confirm({
      title: t('equipment.panel.commandTitle'),
      content: t(action === 'unlock' ? 'equipment.panel.confirmUnlock' : 'equipment.panel.confirmLock', { plate }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await sendLockCommand({ carId, action, compartments: [] });
          void message.success(t(action === 'unlock' ? 'lockEvents.unlockDone' : 'lockEvents.lockDone'));
        } catch {
          // the client showed why; the command is in the lock commands list either way
        }
      },
    });
  const note = a.unknown ? t('equipment.panel.unknown') : t('equipment.panel.models', { models: f!.models.join(t('common.listSeparator')) });
  return (
    <div className="tw-strip" data-testid="car-functions" data-video={a.video} data-locks={a.locks}>
      <Space size={4} wrap>
        {a.video && (
          <Button size="small" icon={<VideoCameraOutlined />} href={`#/manager/videoLive?carId=${carId}`} data-testid="car-video">
            {f?.known && f.videoChannels > 0 ? t('equipment.panel.videoN', { n: f.videoChannels }) : t('equipment.panel.video')}
          </Button>
        )}
        {a.locks && canCommand && (
          <>
            <Button size="small" icon={<UnlockOutlined />} onClick={() => send('unlock')} data-testid="car-unlock">
              {t('equipment.panel.unlock')}
            </Button>
            <Button size="small" icon={<LockOutlined />} onClick={() => send('lock')} data-testid="car-lock">
              {t('equipment.panel.lock')}
            </Button>
          </>
        )}
        {!q.isPending && (
          <Tooltip title={note}>
            <span className="tw-muted" style={{ fontSize: 12 }} data-testid="car-functions-note">
              {a.unknown ? t('equipment.panel.unknownShort') : f!.models.join(t('common.listSeparator'))}
            </span>
          </Tooltip>
        )}
      </Space>
    </div>
  );
}
