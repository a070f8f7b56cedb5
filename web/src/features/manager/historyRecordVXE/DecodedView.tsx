import { Alert, Descriptions, Empty, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DecodedDevice, DecodedFrame, DecodedLocation, DecodedLock, DecodedTank } from '../../../api/history';
import { bearingText } from '../../../lib/bearing';
import { levelText } from '../history/format';
import { bodyShape, spacedHex, valueText } from './decoded';

const mono = { fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' as const };

function Hex({ hex }: { hex: string }) {
  return (
    <Typography.Paragraph copyable={{ text: hex }} style={{ ...mono, marginBottom: 0 }}>
      {spacedHex(hex)}
    </Typography.Paragraph>
  );
}

function Names({ names, color }: { names: string[]; color: string }) {
  if (names.length === 0) return null;
  return (
    <Space size={[0, 4]} wrap style={{ marginLeft: 8 }}>
      {names.map((n) => (
        <Tag key={n} color={color}>
          {n}
        </Tag>
      ))}
    </Space>
  );
}

function DeviceTag({ d }: { d: DecodedDevice }) {
  const { t } = useTranslation();
  if (!d.installed) return <Typography.Text type="secondary">{t('rawData.notInstalled')}</Typography.Text>;
  return (
    <Space size={[0, 4]} wrap>
      <Tag color={d.open ? 'orange' : 'green'}>{d.open ? t('rawData.open') : t('rawData.closed')}</Tag>
      {d.locked && <Tag color="blue">{t('rawData.locked')}</Tag>}
      {d.fault && <Tag color="red">{t('rawData.fault')}</Tag>}
    </Space>
  );
}

/** Lock events (item 0xE6): what each lock reported, on its own clock. */
function LocksView({ locks }: { locks: DecodedLock[] }) {
  const { t } = useTranslation();
  // tampering and an offline lock stand out as they do on the lock events page
  const color = (ev: number) => (ev === 3 ? 'red' : ev === 1 ? 'orange' : ev === 2 ? 'green' : ev === 4 || ev === 5 ? 'gold' : 'blue');
  return (
    <Table
      size="small"
      pagination={false}
      rowKey={(l) => `${l.serial}|${l.time}|${l.event}`}
      style={{ marginTop: 8 }}
      data-testid="decoded-locks"
      title={() => t('rawData.lockEvents')}
      dataSource={locks}
      columns={[
        { title: t('rawData.lockSerial'), dataIndex: 'serial', width: 160, render: (v: string) => <span style={mono}>{v}</span> },
        { title: t('rawData.lockEvent'), dataIndex: 'eventName', width: 110, render: (v: string, l) => <Tag color={color(l.event)}>{v || l.event}</Tag> },
        { title: t('rawData.lockMethod'), dataIndex: 'methodName', width: 140, render: (v: string, l) => v || l.method },
        {
          title: t('rawData.compartment'),
          key: 'where',
          width: 160,
          render: (_: unknown, l) => `${t('history.compartmentNo', { no: l.compartment })} ${l.deviceName || l.device}`,
        },
        { title: t('rawData.lockBattery'), dataIndex: 'battery', width: 100, render: (v: number | null) => (v === null ? t('rawData.lockBatteryUnknown') : `${v}%`) },
        { title: t('rawData.lockTime'), dataIndex: 'time', width: 170 },
      ]}
    />
  );
}

/** The tank extension: compartments × devices, seal, levels, help request, lock events. */
export function TankView({ tank }: { tank: DecodedTank }) {
  const { t } = useTranslation();
  const comps = tank.compartments ?? [];
  const names = comps[0]?.devices.map((d) => d.name) ?? [];
  return (
    <div data-testid="decoded-tank">
      {comps.length > 0 && (
        <Table
          size="small"
          pagination={false}
          rowKey="no"
          style={{ marginBottom: 8 }}
          dataSource={comps}
          columns={[
            { title: t('rawData.compartment'), dataIndex: 'no', width: 80, render: (no: number) => t('history.compartmentNo', { no }) },
            ...names.map((name, i) => ({ title: name, key: String(i), render: (_: unknown, c: (typeof comps)[number]) => <DeviceTag d={c.devices[i]} /> })),
          ]}
        />
      )}
      <Descriptions size="small" column={3} bordered>
        {tank.sealName !== undefined && <Descriptions.Item label={t('rawData.seal')}>{tank.sealName}</Descriptions.Item>}
        {tank.levels && tank.levels.length > 0 && (
          <Descriptions.Item label={t('rawData.levels')} span={2}>
            {tank.levels.map((l) => (
              <div key={l.compartment}>{levelText(t, l)}</div>
            ))}
          </Descriptions.Item>
        )}
        {tank.help && (
          <Descriptions.Item label={t('rawData.help')}>
            {tank.help.name} ({t('rawData.requestId')} {tank.help.requestId})
          </Descriptions.Item>
        )}
        {tank.lockState && (
          <Descriptions.Item label={t('rawData.lockState')} span={3}>
            <span style={mono}>{tank.lockState}</span>
          </Descriptions.Item>
        )}
      </Descriptions>
      {tank.locks && tank.locks.length > 0 && <LocksView locks={tank.locks} />}
    </div>
  );
}

/** A location body (0x0200, an item of 0x0704, the position in 0x0500). */
export function LocationView({ loc }: { loc: DecodedLocation }) {
  const { t } = useTranslation();
  const b = bearingText(loc.direction);
  return (
    <div data-testid="decoded-location">
      <Descriptions size="small" column={3} bordered style={{ marginBottom: 8 }}>
        <Descriptions.Item label={t('rawData.deviceTime')}>{loc.time || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('rawData.position')}>
          {loc.lng === 0 && loc.lat === 0 ? t('common.notLocated') : `${loc.lng.toFixed(6)}, ${loc.lat.toFixed(6)}`}
        </Descriptions.Item>
        <Descriptions.Item label={t('rawData.altitude')}>{loc.altitude} m</Descriptions.Item>
        <Descriptions.Item label={t('rawData.speed')}>{loc.speed} km/h</Descriptions.Item>
        <Descriptions.Item label={t('rawData.direction')}>
          {t(b.key, b.args)} ({loc.direction}°)
        </Descriptions.Item>
        <Descriptions.Item label={t('rawData.load')}>{loc.load || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('rawData.alarm')} span={3}>
          <span style={mono}>{loc.alarm}</span>
          <Names names={loc.alarms} color="red" />
        </Descriptions.Item>
        <Descriptions.Item label={t('rawData.status')} span={3}>
          <span style={mono}>{loc.status}</span>
          <Names names={loc.states} color="blue" />
        </Descriptions.Item>
      </Descriptions>
      {loc.items.length > 0 && (
        <Table
          size="small"
          pagination={false}
          rowKey={(it) => it.id + it.hex}
          style={{ marginBottom: 8 }}
          dataSource={loc.items}
          columns={[
            { title: t('rawData.itemId'), dataIndex: 'id', width: 120, render: (v: string) => <span style={mono}>{v}</span> },
            { title: t('rawData.itemName'), dataIndex: 'name', width: 200 },
            { title: t('rawData.itemValue'), dataIndex: 'value', render: (v: unknown) => valueText(v) },
            { title: t('rawData.itemHex'), dataIndex: 'hex', render: (v: string) => <span style={mono}>{v}</span> },
          ]}
        />
      )}
      {loc.tank && <TankView tank={loc.tank} />}
      {loc.tankError && <Alert type="warning" showIcon message={t('rawData.tankError')} description={loc.tankError} />}
      {loc.cut && <Alert type="warning" showIcon message={t('rawData.cutEntry')} description={loc.cut} data-testid="decoded-cut" />}
    </div>
  );
}

/** A decoded frame: header, body in its form, and the decoding error when there is one. */
export function DecodedView({ decoded }: { decoded: DecodedFrame | undefined }) {
  const { t } = useTranslation();
  if (!decoded) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('rawData.notDecoded')} />;
  const h = decoded.header;
  const body = bodyShape(decoded.body);
  return (
    <div className="tw-decoded" data-testid="decoded-frame" style={{ display: 'grid', gap: 8 }}>
      {decoded.error && <Alert type="error" showIcon message={t('rawData.decodeError')} description={decoded.error} data-testid="decoded-error" />}
      {h && (
        <Descriptions size="small" column={4} bordered title={t('rawData.header')}>
          <Descriptions.Item label={t('rawData.msgId')}>{h.msgId}</Descriptions.Item>
          <Descriptions.Item label={t('rawData.version')}>{h.version}</Descriptions.Item>
          <Descriptions.Item label={t('rawData.phone')}>{h.phone}</Descriptions.Item>
          <Descriptions.Item label={t('rawData.serial')}>{h.serial}</Descriptions.Item>
          <Descriptions.Item label={t('rawData.bodyLength')}>{h.bodyLength}</Descriptions.Item>
          <Descriptions.Item label={t('rawData.encryption')}>{h.encryption}</Descriptions.Item>
          {h.packet && <Descriptions.Item label={t('rawData.packet')}>{h.packet}</Descriptions.Item>}
        </Descriptions>
      )}
      {body.kind !== 'none' && <Typography.Text strong>{t('rawData.body')}</Typography.Text>}
      {body.kind === 'location' && <LocationView loc={body.location} />}
      {body.kind === 'batch' && (
        <>
          <Typography.Text>{t(body.blind ? 'rawData.batchBlind' : 'rawData.batchNormal', { n: body.items.length })}</Typography.Text>
          {body.items.map((loc, i) => (
            <div key={i}>
              <Typography.Text type="secondary">#{i + 1}</Typography.Text>
              <LocationView loc={loc} />
            </div>
          ))}
          {body.cut && <Alert type="warning" showIcon message={t('rawData.cutEntry')} description={body.cut} />}
        </>
      )}
      {body.kind === 'controlReply' && (
        <>
          <Typography.Text>
            {t('rawData.replySerial')}: {body.serial}
          </Typography.Text>
          <LocationView loc={body.location} />
        </>
      )}
      {body.kind === 'passThrough' && (
        <>
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={t('rawData.passType')}>{body.type}</Descriptions.Item>
            <Descriptions.Item label={t('rawData.hex')}>
              <Hex hex={body.hex} />
            </Descriptions.Item>
          </Descriptions>
          {body.tank && <TankView tank={body.tank} />}
          {body.tankError && <Alert type="warning" showIcon message={t('rawData.tankError')} description={body.tankError} />}
        </>
      )}
      {body.kind === 'fields' && (
        <Descriptions size="small" column={3} bordered>
          {body.rows.map((r) => (
            <Descriptions.Item key={r.key} label={r.key}>
              {r.value}
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
      {body.kind === 'hex' && <Hex hex={body.hex} />}
    </div>
  );
}
