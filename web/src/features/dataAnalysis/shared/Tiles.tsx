import { Card, Col, Row as AntRow, Statistic, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Changes, Figures } from './api';
import { FIGURES, fmt, fmtChange, type Figure } from './model';

/** The set's figures as tiles; a tile with trips behind it opens them; changes in % under each when given. */
export function Tiles({ totals, onDrill, mom, yoy }: { totals?: Figures; onDrill?: (f: Figure) => void; mom?: Changes; yoy?: Changes }) {
  const { t } = useTranslation();
  return (
    <AntRow gutter={[12, 12]} data-testid="tiles">
      {FIGURES.map((f) => {
        const v = totals ? f.value(totals) : null;
        const click = onDrill && f.only !== undefined && totals && v !== null;
        return (
          <Col key={f.key} xs={12} md={6} xl={4}>
            <Card
              size="small"
              hoverable={!!click}
              onClick={click ? () => onDrill!(f) : undefined}
              data-testid={`tile-${f.key}`}
              style={{ height: '100%' }}
            >
              <Statistic
                title={
                  f.only === undefined ? (
                    <Tooltip title={t('analysis.eventsHint')}>
                      <span>{t(`analysis.fig.${f.key}`)} ⓘ</span>
                    </Tooltip>
                  ) : (
                    t(`analysis.fig.${f.key}`)
                  )
                }
                value={totals ? fmt(v, f.digits) : '…'}
                suffix={v !== null && f.unit ? <span style={{ fontSize: 13 }}>{f.unit}</span> : undefined}
                valueStyle={{ fontSize: 22, color: click ? '#1677ff' : undefined }}
              />
              {(mom || yoy) && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {mom && `${t('analysis.mom')} ${fmtChange(mom[f.key])}`}
                  {mom && yoy && ' · '}
                  {yoy && `${t('analysis.yoy')} ${fmtChange(yoy[f.key])}`}
                </Typography.Text>
              )}
            </Card>
          </Col>
        );
      })}
    </AntRow>
  );
}
