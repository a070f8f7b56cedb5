import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Form, Row, Spin, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { typeLine, typeRatio, vehicleRanking, vehicleStatistics, type AlarmFilters, type CarTypes } from '../../../api/alarm';
import { GroupSelect } from '../../../components/GroupSelect';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import { useAlarmTypes } from '../common/alarmUi';
import { ALARM_DEFAULTS, alarmInitial, toAlarmFilters } from '../common/filters';
import { Chart } from './Chart';
import { lineOption, pieOption, rankingOption } from './charts';
import { useDefaultPageSize } from '../../../app/prefs';

function ChartCard({ title, loading, error, empty, children }: { title: string; loading: boolean; error: boolean; empty: boolean; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={title} style={{ height: '100%' }}>
      {loading ? <Spin /> : error ? <Alert type="error" showIcon message={t('common.requestFailed')} /> : empty ? <Empty description={t('abnormal.noData')} /> : children}
    </Card>
  );
}

/** 异常报警: alarm statistics of the caller's scope for a time range — type ratio, vehicle ranking, per day, per vehicle. */
export default function AbnormalPage() {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<{ groupId?: number; range?: TimeRangeValue }>();
  const [filters, setFilters] = useState<AlarmFilters>(() => toAlarmFilters(alarmInitial()));
  const defaultSize = useDefaultPageSize();
  const [paging, setPaging] = useState(() => ({ pageNum: 1, pageSize: defaultSize }));
  const ready = !!filters.startTime;
  const key = [filters, i18n.language];
  const ratio = useQuery({ queryKey: ['abnormal', 'ratio', ...key], queryFn: () => typeRatio(filters), enabled: ready });
  const ranking = useQuery({ queryKey: ['abnormal', 'ranking', ...key], queryFn: () => vehicleRanking(filters), enabled: ready });
  const line = useQuery({ queryKey: ['abnormal', 'line', ...key], queryFn: () => typeLine(filters), enabled: ready });
  const perCar = useQuery({ queryKey: ['abnormal', 'perCar', paging, ...key], queryFn: () => vehicleStatistics({ ...paging, ...filters }), enabled: ready });
  const types = useAlarmTypes();
  const countLabel = t('abnormal.count');
  const pie = useMemo(() => pieOption(ratio.data ?? [], countLabel), [ratio.data, countLabel]);
  const bars = useMemo(() => rankingOption(ranking.data ?? [], countLabel), [ranking.data, countLabel]);
  const lines = useMemo(() => lineOption(line.data ?? []), [line.data]);
  // the per-vehicle table has a column for each type that occurs in the range
  const seen = useMemo(() => new Set((ratio.data ?? []).map((r) => r.type)), [ratio.data]);
  const typeCols = (types.data ?? []).filter((ty) => seen.has(ty.code));

  return (
    <div className="tw-page">
      <Card size="small" style={{ marginBottom: 12 }}>
        <Form
          form={form}
          layout="inline"
          initialValues={alarmInitial()}
          onFinish={(v) => {
            setFilters(toAlarmFilters(Object.fromEntries(Object.entries(v).filter(([, x]) => x != null))));
            setPaging((p) => ({ ...p, pageNum: 1 }));
          }}
        >
          <Form.Item name="groupId" label={t('alarm.group')}>
            <GroupSelect filter />
          </Form.Item>
          <Form.Item name="range" label={t('alarm.range')}>
            <TimeRangePicker showTime defaults={ALARM_DEFAULTS} />
          </Form.Item>
          <Button type="primary" htmlType="submit">
            {t('common.search')}
          </Button>
        </Form>
      </Card>
      {!ready ? (
        <Empty description={t('abnormal.pickRange')} />
      ) : (
        <>
          <Row gutter={[12, 12]}>
            <Col xs={24} lg={12}>
              <ChartCard title={t('abnormal.typeRatio')} loading={ratio.isLoading} error={ratio.isError} empty={!ratio.data?.length}>
                <Chart option={pie} testId="chart-ratio" />
              </ChartCard>
            </Col>
            <Col xs={24} lg={12}>
              <ChartCard title={t('abnormal.ranking')} loading={ranking.isLoading} error={ranking.isError} empty={!ranking.data?.length}>
                <Chart option={bars} testId="chart-ranking" />
              </ChartCard>
            </Col>
            <Col span={24}>
              <ChartCard title={t('abnormal.perDay')} loading={line.isLoading} error={line.isError} empty={!line.data?.length}>
                <Chart option={lines} testId="chart-line" />
              </ChartCard>
            </Col>
          </Row>
          <Card size="small" title={t('abnormal.perVehicle')} style={{ marginTop: 12 }}>
            <Table<CarTypes>
              rowKey="carId"
              size="small"
              loading={perCar.isLoading}
              dataSource={perCar.data?.list ?? []}
              scroll={{ x: 200 + 120 * typeCols.length }}
              pagination={{
                current: paging.pageNum,
                pageSize: paging.pageSize,
                total: perCar.data?.total ?? 0,
                showTotal: (total) => t('common.total', { total }),
                onChange: (pageNum, pageSize) => setPaging({ pageNum, pageSize }),
              }}
              columns={[
                { title: t('alarm.plate'), dataIndex: 'carNumber', key: 'carNumber', width: 120, fixed: 'left' },
                { title: t('abnormal.total'), dataIndex: 'total', key: 'total', width: 80 },
                ...typeCols.map((ty) => ({ title: ty.name, key: ty.code, width: 120, render: (_: unknown, r: CarTypes) => r.counts[ty.code] ?? 0 })),
              ]}
            />
          </Card>
        </>
      )}
    </div>
  );
}
