import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Form, Radio, Space, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportFile } from '../../../api/export';
import { loadReport, loadReportExport, type ReportLine, type ReportQuery } from '../../../api/waybillLoads';
import { AuthButton } from '../../../components/AuthButton';
import { zoneNow } from '../../../lib/zone';

const F = 'YYYY-MM-DD HH:mm:ss';

/** The load report: records of a period added up by car, depot or product; each line expands to its records. */
export function LoadReportTab() {
  const { t } = useTranslation();
  const [q, setQ] = useState<ReportQuery>(() => ({
    startTime: zoneNow().startOf('month').format(F),
    endTime: zoneNow().endOf('day').format(F),
    groupBy: 'car',
  }));
  const rep = useQuery({ queryKey: ['loadReport', q], queryFn: () => loadReport(q) });
  const num = (v: number, d: number) => v.toLocaleString(undefined, { minimumFractionDigits: d, maximumFractionDigits: d });
  return (
    <div>
      <Card variant="borderless" style={{ marginBottom: 12 }}>
        <Form
          layout="inline"
          initialValues={{ range: [dayjs(q.startTime), dayjs(q.endTime)], groupBy: q.groupBy }}
          onFinish={(v: { range: [Dayjs, Dayjs]; groupBy: ReportQuery['groupBy'] }) =>
            setQ({ startTime: v.range[0].format(F), endTime: v.range[1].format(F), groupBy: v.groupBy })
          }
        >
          <Form.Item name="range" label={t('loadRecord.period')} rules={[{ required: true, message: t('loadRecord.required', { field: t('loadRecord.period') }) }]}>
            <DatePicker.RangePicker showTime />
          </Form.Item>
          <Form.Item name="groupBy" label={t('loadRecord.groupBy')}>
            <Radio.Group
              optionType="button"
              options={(['car', 'depot', 'product'] as const).map((g) => ({ value: g, label: t(`loadRecord.groupBys.${g}`) }))}
            />
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
                {t('common.search')}
              </Button>
              <AuthButton code="export">
                <Button icon={<DownloadOutlined />} onClick={() => void exportFile(loadReportExport(q)).catch(() => undefined)}>
                  {t('common.export')}
                </Button>
              </AuthButton>
            </Space>
          </Form.Item>
        </Form>
      </Card>
      <Card variant="borderless">
        <Table<ReportLine>
          rowKey="key"
          size="middle"
          loading={rep.isFetching}
          dataSource={rep.data?.lines ?? []}
          pagination={false}
          locale={{ emptyText: t('loadRecord.reportEmpty') }}
          expandable={{
            expandedRowRender: (l) => (
              <Table
                size="small"
                rowKey="id"
                pagination={false}
                dataSource={l.records}
                columns={[
                  { title: t('loadRecord.loadedAt'), dataIndex: 'loadedAt', render: (v: number) => dayjs(v).format('YYYY-MM-DD HH:mm') },
                  { title: t('loadRecord.waybillNo'), dataIndex: 'waybillNo' },
                  { title: t('loadRecord.ticketNo'), dataIndex: 'ticketNo' },
                  { title: t('loadRecord.plate'), dataIndex: 'plate' },
                  { title: t('loadRecord.depot'), dataIndex: 'depotName' },
                  { title: t('loadRecord.vt'), dataIndex: 'vtL', align: 'right', render: (v: number) => num(v, 1) },
                  { title: 'V20 (L)', dataIndex: 'v20L', align: 'right', render: (v: number) => num(v, 1) },
                  { title: t('loadRecord.mass'), dataIndex: 'massT', align: 'right', render: (v: number) => num(v, 3) },
                ]}
              />
            ),
          }}
          columns={[
            { title: t(`loadRecord.groupBys.${rep.data?.groupBy ?? q.groupBy}`), dataIndex: 'name' },
            { title: t('loadRecord.count'), dataIndex: 'count', align: 'right', width: 120 },
            { title: t('loadRecord.vt'), dataIndex: 'vtL', align: 'right', width: 160, render: (v: number) => num(v, 1) },
            { title: 'V20 (L)', dataIndex: 'v20L', align: 'right', width: 160, render: (v: number) => num(v, 1) },
            { title: t('loadRecord.mass'), dataIndex: 'massT', align: 'right', width: 140, render: (v: number) => num(v, 3) },
          ]}
          summary={() =>
            rep.data && rep.data.lines.length > 0 ? (
              <Table.Summary.Row data-testid="report-total">
                <Table.Summary.Cell index={0} />
                <Table.Summary.Cell index={1}>
                  <Typography.Text strong>{t('loadRecord.total')}</Typography.Text>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={2} align="right">
                  {rep.data.total.count}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={3} align="right">
                  {num(rep.data.total.vtL, 1)}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={4} align="right">
                  {num(rep.data.total.v20L, 1)}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={5} align="right">
                  {num(rep.data.total.massT, 3)}
                </Table.Summary.Cell>
              </Table.Summary.Row>
            ) : null
          }
        />
      </Card>
    </div>
  );
}
