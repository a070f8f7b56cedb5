import { FileSearchOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Empty, Form, Radio, Space, Spin } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { operationsReport, reportExport, type Named, type Report, type ReportKind, type ReportQuery } from '../../../api/overview';
import { GroupSelect } from '../../../components/GroupSelect';
import { createPortal } from 'react-dom';
import { formatServerTime } from '../../../lib/playback';
import { ExportButton } from '../statistic/ExportButton';
import { litres, num, reportTitle, sumRows } from './model';
import './report.css';

type FormValues = { groupId?: number; kind: ReportKind; date?: Dayjs };

/** A table of per-car or per-product figures with its totals row. */
function FigureTable({ rows, nameTitle, testId }: { rows: Named[]; nameTitle: string; testId?: string }) {
  const { t } = useTranslation();
  if (!rows.length) return <p className="rp-none">{t('overview.report.none')}</p>;
  const s = sumRows(rows);
  const cells = (r: { trips: number; shippedV20: number; shippedT: number; receivedV20: number; lossL: number; lossRatePct: number; km: number; tonKm: number; overAllowance: number; abnormalOpenings: number }) => (
    <>
      <td>{r.trips}</td>
      <td>{litres(r.shippedV20)}</td>
      <td>{num(r.shippedT, 3)}</td>
      <td>{litres(r.receivedV20)}</td>
      <td>{litres(r.lossL)}</td>
      <td>{r.lossRatePct.toFixed(4)}</td>
      <td>{num(r.km, 1)}</td>
      <td>{num(r.tonKm, 1)}</td>
      <td>{r.overAllowance}</td>
      <td>{r.abnormalOpenings}</td>
    </>
  );
  return (
    <table className="rp-table" data-testid={testId}>
      <thead>
        <tr>
          <th>{nameTitle}</th>
          <th>{t('overview.tile.trips')}</th>
          <th>{t('overview.tile.shippedV20')} (L)</th>
          <th>{t('overview.tile.shippedT')} (t)</th>
          <th>{t('overview.tile.receivedV20')} (L)</th>
          <th>{t('overview.tile.lossL')} (L)</th>
          <th>{t('overview.tile.lossRate')} (%)</th>
          <th>{t('overview.tile.km')} (km)</th>
          <th>{t('overview.tile.tonKm')}</th>
          <th>{t('overview.tile.overAllowance')}</th>
          <th>{t('overview.tile.openings')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            <td className="rp-name">{r.name || '—'}</td>
            {cells(r)}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td className="rp-name">{t('overview.report.total')}</td>
          {cells(s)}
        </tr>
      </tfoot>
    </table>
  );
}

/** The printable report: a fixed A4 layout, the same sections as the xlsx. */
function Paper({ r, print }: { r: Report; print?: boolean }) {
  const { t } = useTranslation();
  const kind = t(`overview.kind.${r.kind}`);
  const s = r.summary;
  const summary: [string, string][] = [
    [t('overview.tile.trips'), String(s.trips)],
    [`${t('overview.tile.shippedV20')} (L)`, litres(s.shippedV20)],
    [`${t('overview.tile.shippedT')} (t)`, num(s.shippedT, 3)],
    [`${t('overview.tile.receivedV20')} (L)`, litres(s.receivedV20)],
    [`${t('overview.tile.lossL')} (L)`, litres(s.lossL)],
    [`${t('overview.tile.lossRate')} (%)`, s.lossRatePct.toFixed(4)],
    [`${t('overview.tile.km')} (km)`, num(s.km, 1)],
    [t('overview.tile.tonKm'), num(s.tonKm, 1)],
    [`${t('overview.tile.avgOutToArrival')} (min)`, s.avgOutToArrivalMin < 0 ? '—' : s.avgOutToArrivalMin.toFixed(1)],
    [t('overview.tile.overAllowance'), String(s.overAllowance)],
    [t('overview.tile.openings'), String(s.abnormalOpenings)],
    [t('overview.tile.lockTampered'), String(s.lockTampered)],
    [t('overview.tile.sealIncidents'), String(s.sealIncidents)],
  ];
  const pairs: [string, string][][] = [];
  for (let i = 0; i < summary.length; i += 2) pairs.push(summary.slice(i, i + 2));
  const st = r.stations.reduce((a, x) => ({ u: a.u + x.unloadings, v: a.v + x.receivedV20 }), { u: 0, v: 0 });
  const detail = (d: Report['differences'][number]) => {
    if (d.kind === 'over') return t('overview.report.overLine', { rate: d.lossRatePct.toFixed(4), allowed: d.allowedPct.toFixed(4), loss: litres(d.lossL) });
    if (d.kind === 'opening') return t('overview.report.openingLine', { n: d.compartment });
    return `${t(`overview.sealKind.${d.sealKind}`)} ${d.sealNo}`;
  };
  return (
    <div className={print ? 'rp-paper rp-print' : 'rp-paper'} data-testid={print ? undefined : 'report-paper'}>
      <header className="rp-head">
        <h1>{reportTitle(r, (period) => t('overview.report.heading', { company: r.company, kind, period }))}</h1>
        <div className="rp-meta">
          <span data-testid={print ? undefined : 'report-company'}>{r.company}</span>
          <span>{t('overview.report.periodLine', { kind, from: r.from, to: r.to })}</span>
          <span>{t('overview.report.generatedAt', { t: r.generatedAt })}</span>
        </div>
      </header>
      <section data-testid={print ? undefined : 'report-summary'}>
        <h2>{t('overview.report.summary')}</h2>
        <table className="rp-table rp-kv">
          <tbody>
            {pairs.map((p) => (
              <tr key={p[0][0]}>
                {p.map(([k, v]) => (
                  <Fragment key={k}>
                    <th>{k}</th>
                    <td>{v}</td>
                  </Fragment>
                ))}
                {p.length === 1 && (
                  <>
                    <th />
                    <td />
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section>
        <h2>{t('overview.report.cars')}</h2>
        <FigureTable rows={r.cars} nameTitle={t('overview.plate')} testId={print ? undefined : 'report-cars'} />
      </section>
      <section>
        <h2>{t('overview.report.products')}</h2>
        <FigureTable rows={r.products} nameTitle={t('overview.report.product')} testId={print ? undefined : 'report-products'} />
        {r.products.length > 0 && <p className="rp-note">{t('overview.report.productsNote')}</p>}
      </section>
      <section>
        <h2>{t('overview.report.stations')}</h2>
        {r.stations.length ? (
          <table className="rp-table" data-testid={print ? undefined : 'report-stations'}>
            <thead>
              <tr>
                <th>{t('overview.report.station')}</th>
                <th>{t('overview.report.unloadings')}</th>
                <th>{t('overview.report.cars2')}</th>
                <th>{t('overview.tile.receivedV20')} (L)</th>
              </tr>
            </thead>
            <tbody>
              {r.stations.map((x) => (
                <tr key={x.stationId}>
                  <td className="rp-name">{x.name}</td>
                  <td>{x.unloadings}</td>
                  <td>{x.cars}</td>
                  <td>{litres(x.receivedV20)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <td className="rp-name">{t('overview.report.total')}</td>
                <td>{st.u}</td>
                <td />
                <td>{litres(st.v)}</td>
              </tr>
            </tfoot>
          </table>
        ) : (
          <p className="rp-none">{t('overview.report.none')}</p>
        )}
      </section>
      <section>
        <h2>{t('overview.report.diffs')}</h2>
        {r.truncated && <p className="rp-note">{t('overview.report.truncated', { n: r.differences.length })}</p>}
        {r.differences.length ? (
          <table className="rp-table" data-testid={print ? undefined : 'report-diffs'}>
            <thead>
              <tr>
                <th>{t('overview.report.time')}</th>
                <th>{t('overview.report.diffKind')}</th>
                <th>{t('overview.report.waybill')}</th>
                <th>{t('overview.plate')}</th>
                <th>{t('overview.report.detail')}</th>
              </tr>
            </thead>
            <tbody>
              {r.differences.map((d, i) => (
                <tr key={`${d.kind}-${d.waybillId}-${i}`}>
                  <td>{formatServerTime(d.t)}</td>
                  <td className="rp-name">{t(`overview.diff.${d.kind}`)}</td>
                  <td className="rp-name">{d.waybillNo || '—'}</td>
                  <td className="rp-name">{d.plate || '—'}</td>
                  <td className="rp-name rp-wrap">{detail(d)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="rp-none">{t('overview.report.noDiffs')}</p>
        )}
      </section>
      <section className="rp-sign">
        <h2>{t('overview.report.sign')}</h2>
        <div className="rp-sign-lines">
          {(['preparedBy', 'checkedBy', 'approvedBy', 'signDate'] as const).map((k) => (
            <span key={k}>
              {t(`overview.report.${k}`)}：<i />
            </span>
          ))}
        </div>
      </section>
    </div>
  );
}

/** 报表 (04-20): the formal operations report of one company for a day, week or month, printable (A4) and exported as xlsx (D56). */
export default function ReportPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const [asked, setAsked] = useState<ReportQuery | null>(null);
  const q = useQuery({ queryKey: ['operationsReport', asked], enabled: !!asked, queryFn: () => operationsReport(asked!) });
  const r = q.data;
  return (
    <div className="rp-page">
      <Card size="small" className="rp-filters">
        <Form<FormValues>
          form={form}
          layout="inline"
          initialValues={{ kind: 'month', date: dayjs() }}
          onFinish={(v) => v.groupId && v.date && setAsked({ groupId: v.groupId, kind: v.kind, date: v.date.format('YYYY-MM-DD') })}
        >
          <Form.Item name="groupId" label={t('overview.company')} rules={[{ required: true, message: t('overview.report.companyRequired') }]}>
            <GroupSelect style={{ width: 200 }} data-testid="rp-group" />
          </Form.Item>
          <Form.Item name="kind" label={t('overview.report.kind')}>
            <Radio.Group optionType="button" options={(['day', 'week', 'month'] as const).map((k) => ({ value: k, label: t(`overview.kind.${k}`) }))} />
          </Form.Item>
          <Form.Item noStyle shouldUpdate={(a, b) => a.kind !== b.kind}>
            {({ getFieldValue }) => (
              <Form.Item name="date" label={t('overview.report.date')} rules={[{ required: true, message: t('overview.report.dateRequired') }]}>
                <DatePicker picker={getFieldValue('kind') === 'month' ? 'month' : getFieldValue('kind') === 'week' ? 'week' : 'date'} allowClear={false} />
              </Form.Item>
            )}
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<FileSearchOutlined />} data-testid="rp-generate">
              {t('overview.report.generate')}
            </Button>
            <Button icon={<PrinterOutlined />} disabled={!r} onClick={() => window.print()}>
              {t('overview.report.print')}
            </Button>
            <ExportButton request={asked ? () => reportExport(asked) : null} testId="rp-export" />
          </Space>
        </Form>
      </Card>
      {!asked && <Empty className="rp-empty" description={t('overview.report.pick')} />}
      {q.isError && <Alert type="error" showIcon message={t('overview.loadFailed')} />}
      {asked && q.isFetching && !r && <Spin style={{ display: 'block', margin: 48 }} />}
      {r && (
        <Spin spinning={q.isFetching}>
          <Paper r={r} />
          {/* the printed copy: outside the console's layout, which print hides (report.css) */}
          {createPortal(<Paper r={r} print />, document.body)}
        </Spin>
      )}
    </div>
  );
}
