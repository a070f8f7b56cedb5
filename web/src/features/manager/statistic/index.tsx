import { ArrowDownOutlined, ArrowUpOutlined, SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Form, Row, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { selectTrafficStatistics, statesNow, statisticExport, type Named, type Overview, type OverviewQuery } from '../../../api/overview';
import { GroupSelect } from '../../../components/GroupSelect';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import { initialRange } from '../../../lib/presets';
import { DayChart, NamedBars } from './Charts';
import { ExportButton } from './ExportButton';
import { change, fmt, TILES, tone, type TileDef } from './logic';
import { TripsDrawer, type DrillAsk } from './TripsDrawer';
import './statistic.css';

const DEFAULTS = { this_month: true } as const;

function toQuery(range: TimeRangeValue, groupId?: number): OverviewQuery | null {
  if (!range.start || !range.end) return null;
  return { start: range.start.slice(0, 10), end: range.end.slice(0, 10), groupId };
}

/** One tile: the period's figure, the previous period's and the change; a click drills down. */
function Tile({ def, o, onClick }: { def: TileDef; o: Overview; onClick?: () => void }) {
  const { t, i18n } = useTranslation();
  const cur = def.value(o.current);
  const prev = def.value(o.previous);
  const pct = change(cur, prev);
  const tn = tone(pct, def.badUp);
  return (
    <Card size="small" hoverable={!!onClick} onClick={onClick} className="ov-tile" data-testid={`tile-${def.key}`}>
      <div className="ov-tile-label">{t(`overview.tile.${def.key}`)}</div>
      <div className="ov-tile-value" data-testid={`tile-${def.key}-value`} data-value={cur}>
        {fmt(cur, def.digits, i18n.language)}
        {def.unit && <span className="ov-tile-unit">{def.unit}</span>}
      </div>
      <div className={`ov-tile-change ov-${tn}`}>
        {pct === null ? (
          <span>{t('overview.noCompare')}</span>
        ) : (
          <span>
            {pct > 0 ? <ArrowUpOutlined /> : pct < 0 ? <ArrowDownOutlined /> : null} {Math.abs(pct).toFixed(1)} %
          </span>
        )}
        <Tooltip title={`${o.prevFrom} ~ ${o.prevTo}`}>
          <span className="ov-tile-prev">
            {t('overview.prev')} {fmt(prev, def.digits, i18n.language)}
          </span>
        </Tooltip>
      </div>
    </Card>
  );
}

/** 统计 (04-21): the period's overview across the scope — tiles against the previous period, charts, the trips by state now; every trip figure drills down to its trips (D56). */
export default function StatisticPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<{ range: TimeRangeValue; groupId?: number }>();
  const [asked, setAsked] = useState<OverviewQuery | null>(() => toQuery(initialRange(DEFAULTS, false)));
  const [drill, setDrill] = useState<DrillAsk | null>(null);
  const q = useQuery({ queryKey: ['overview', asked], enabled: !!asked, queryFn: () => selectTrafficStatistics(asked!), placeholderData: keepPreviousData });
  const states = useQuery({
    queryKey: ['overviewStates', asked?.groupId],
    queryFn: () => statesNow({ groupId: asked?.groupId }),
    refetchInterval: 60_000,
  });
  const o = q.data;
  const period = o ? `${o.from} ~ ${o.to}` : '';
  const open = (def: TileDef) => {
    if (!asked || !def.drill) return undefined;
    const d = def.drill;
    if (d.kind === 'page') return () => navigate(d.path);
    return () => setDrill({ ...asked, title: `${t(`overview.tile.${def.key}`)} · ${period}`, over: d.over ? 'over' : undefined });
  };
  const company = (r: Named) => asked && setDrill({ ...asked, groupId: r.key, title: `${r.name} · ${period}` });
  return (
    <div className="ov-page">
      <Card size="small" className="ov-filters">
        <Form
          form={form}
          layout="inline"
          initialValues={{ range: initialRange(DEFAULTS, false) }}
          onFinish={(v) => {
            const next = toQuery(v.range, v.groupId);
            if (next) setAsked(next);
          }}
        >
          <Form.Item name="range" label={t('overview.period')} rules={[{ validator: (_r, v: TimeRangeValue) => (v?.start && v?.end ? Promise.resolve() : Promise.reject(new Error(t('overview.periodRequired')))) }]}>
            <TimeRangePicker includeOptional defaults={DEFAULTS} />
          </Form.Item>
          <Form.Item name="groupId" label={t('overview.company')}>
            <GroupSelect filter />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="ov-query">
              {t('common.search')}
            </Button>
            <ExportButton request={asked ? () => statisticExport(asked) : null} testId="ov-export" />
          </Space>
        </Form>
      </Card>
      {!asked && <Empty description={t('overview.pickPeriod')} />}
      {q.isError && <Alert type="error" showIcon message={t('overview.loadFailed')} />}
      {asked && !o && q.isFetching && <Spin style={{ display: 'block', margin: 48 }} />}
      {o && (
        <Spin spinning={q.isFetching}>
          <Typography.Text type="secondary" className="ov-period" data-testid="ov-period">
            {t('overview.periodLine', { from: o.from, to: o.to, prevFrom: o.prevFrom, prevTo: o.prevTo })}
          </Typography.Text>
          {o.current.trips === 0 && <Alert className="ov-gap" type="info" showIcon message={t('overview.emptyPeriod')} />}
          <div className="ov-tiles">
            {TILES.map((d) => (
              <Tile key={d.key} def={d} o={o} onClick={open(d)} />
            ))}
          </div>
          <Row gutter={[12, 12]} className="ov-gap">
            <Col xs={24} xl={16}>
              <Card size="small" title={t('overview.chart.byDay')} extra={<Typography.Text type="secondary">{t('overview.clickHint')}</Typography.Text>}>
                <DayChart days={o.byDay} onDay={(day) => setDrill({ ...asked!, day, title: `${t('overview.tile.trips')} · ${day}` })} />
              </Card>
            </Col>
            <Col xs={24} xl={8}>
              <Card size="small" title={t('overview.chart.statesNow')} extra={states.data && <Tag>{t('overview.openTrips', { n: states.data.total })}</Tag>}>
                {states.isError && <Alert type="error" showIcon message={t('overview.loadFailed')} />}
                <div className="ov-states" data-testid="states-now">
                  {states.data?.states.map((s) => (
                    <div key={s.state} className={s.count ? 'ov-state' : 'ov-state ov-state-zero'}>
                      <span>{t(`waybillCommon.state.${s.state}`, s.state)}</span>
                      <b>{s.count}</b>
                    </div>
                  ))}
                </div>
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title={t('overview.chart.byCompany')} extra={<Typography.Text type="secondary">{t('overview.clickHint')}</Typography.Text>}>
                {o.byCompany.length ? (
                  <NamedBars rows={o.byCompany} value={(r) => r.trips} label={t('overview.tile.trips')} color="#10b981" onBar={company} testId="chart-company" />
                ) : (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
                )}
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title={t('overview.chart.byProduct')}>
                {o.byProduct.length ? (
                  <NamedBars rows={o.byProduct} value={(r) => r.shippedV20} label={t('overview.chart.v20L')} color="#f59e0b" testId="chart-product" />
                ) : (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
                )}
              </Card>
            </Col>
          </Row>
        </Spin>
      )}
      <TripsDrawer ask={drill} onClose={() => setDrill(null)} />
    </div>
  );
}
