import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Modal, Spin } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { waybillDetail } from './api';
import './waybill.css';

const fmt = (ms: number) => (ms ? dayjs(ms).format('YYYY-MM-DD HH:mm') : '');

/**
 * The printable A4 waybill: a plain layout (number, car, driver, escort, depot, destinations,
 * compartments with products and volumes, signature boxes) printed by the browser; the print
 * stylesheet (waybill.css) hides everything else on the page.
 */
export function PrintView({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['waybillDetail', id], queryFn: () => waybillDetail(id) });
  const w = q.data;
  return (
    <Modal
      open
      width={860}
      title={t('waybillBills.print.title')}
      onCancel={onClose}
      destroyOnHidden
      className="wb-print-modal"
      footer={[
        <Button key="close" onClick={onClose}>
          {t('common.close')}
        </Button>,
        <Button key="print" type="primary" icon={<PrinterOutlined />} disabled={!w} onClick={() => window.print()} data-testid="wb-print-go">
          {t('waybillBills.print.print')}
        </Button>,
      ]}
    >
      {q.isLoading && <Spin />}
      {q.isError && <Alert type="error" showIcon message={t('common.requestFailed')} />}
      {w && (
        <div className="wb-print" data-testid="wb-print">
          <h1>{t('waybillBills.print.heading')}</h1>
          <div className="wb-print-no">
            {t('waybillBills.no')}：<b>{w.no}</b>
            <span>{t(`waybillCommon.state.${w.state}`)}</span>
          </div>
          <table className="wb-print-grid">
            <tbody>
              <tr>
                <th>{t('waybillBills.plate')}</th>
                <td>{w.plate}</td>
                <th>{t('waybillBills.carrier')}</th>
                <td>{w.groupName}</td>
              </tr>
              <tr>
                <th>{t('waybillBills.driverName')}</th>
                <td>
                  {w.driverName} {w.driverPhone}
                </td>
                <th>{t('waybillBills.escortName')}</th>
                <td>
                  {w.escortName} {w.escortPhone}
                </td>
              </tr>
              <tr>
                <th>{t('waybillBills.depot')}</th>
                <td>{w.depotName}</td>
                <th>{t('waybillBills.customer')}</th>
                <td>{w.customerName}</td>
              </tr>
              <tr>
                <th>{t('waybillBills.plannedLoadAt')}</th>
                <td>{fmt(w.plannedLoadAt)}</td>
                <th>{t('waybillBills.plannedArriveAt')}</th>
                <td>{fmt(w.plannedArriveAt)}</td>
              </tr>
              <tr>
                <th>{t('waybillBills.salesGroup')}</th>
                <td colSpan={3}>{w.salesGroupName}</td>
              </tr>
              <tr>
                <th>{t('waybillBills.destinations')}</th>
                <td colSpan={3}>{w.destinations.map((d) => `${d.seq}. ${d.stationName}`).join('　')}</td>
              </tr>
            </tbody>
          </table>
          <table className="wb-print-comps">
            <thead>
              <tr>
                <th>{t('waybillBills.compNo')}</th>
                <th>{t('waybillBills.product')}</th>
                <th>{t('waybillBills.plannedL')}</th>
                <th>{t('waybillBills.destSeq')}</th>
              </tr>
            </thead>
            <tbody>
              {w.compartments.map((c) => (
                <tr key={c.no}>
                  <td>{t('waybillBills.compN', { n: c.no })}</td>
                  <td>{c.productName}</td>
                  <td>{c.plannedL.toLocaleString()}</td>
                  <td>{w.destinations.find((d) => d.seq === c.destSeq)?.stationName ?? c.destSeq}</td>
                </tr>
              ))}
              <tr>
                <td colSpan={2}>{t('waybillBills.total')}</td>
                <td>{w.plannedL.toLocaleString()}</td>
                <td />
              </tr>
            </tbody>
          </table>
          {w.remark && (
            <p>
              {t('waybillBills.remark')}：{w.remark}
            </p>
          )}
          <div className="wb-print-signs">
            {(['signDispatcher', 'signDepot', 'signDriver', 'signReceiver'] as const).map((k) => (
              <div key={k}>
                <span>{t(`waybillBills.print.${k}`)}</span>
              </div>
            ))}
          </div>
        </div>
      )}
    </Modal>
  );
}
