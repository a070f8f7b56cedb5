import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../app/store';
import { findNodeByPath } from '../../lib/buttonPermission';
import { FaultForm, type FaultSource } from './FaultForm';

/** Whether the user may open the after-sales page (module 07 guards reading and changing faults, D69). */
export function useCanRaiseFault(): boolean {
  const menu = useAppStore((s) => s.authMenu);
  return !!findNodeByPath(menu, '/faultRecord');
}

/** "报修": files a fault pre-filled from the record it is raised from (an offline period, a sensor event). */
export function RaiseFaultButton({ source }: { source: () => FaultSource }) {
  const { t } = useTranslation();
  const allowed = useCanRaiseFault();
  const [open, setOpen] = useState<FaultSource | null>(null);
  if (!allowed) return null;
  return (
    <>
      <Button type="link" size="small" data-testid="raise-fault" onClick={() => setOpen(source())}>
        {t('faults.raiseAction')}
      </Button>
      {open && <FaultForm source={open} onClose={() => setOpen(null)} onSaved={() => setOpen(null)} />}
    </>
  );
}
