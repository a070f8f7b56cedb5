import type { DeviceModel, DeviceModelInput } from '../../../api/equipment';

export interface ModelFormValues {
  name: string;
  kind: string;
  manufacturer?: string;
  videoChannels?: number | null;
  channelNames?: string;
  probes?: number | null;
  locks?: ('ble' | '4g')[];
  valveSensors?: number | null;
  can?: boolean;
  remark?: string;
}

/** Channel names as typed: one a line or separated by commas (either kind); empty entries keep their place. */
export function parseChannelNames(text: string | undefined): string[] {
  const names = (text ?? '').split(/\r?\n|[,，、]/).map((s) => s.trim());
  while (names.length > 0 && names[names.length - 1] === '') names.pop();
  return names;
}

export function toModelBody(v: ModelFormValues, id?: number): DeviceModelInput {
  return {
    id,
    name: v.name.trim(),
    kind: v.kind,
    manufacturer: (v.manufacturer ?? '').trim(),
    videoChannels: v.videoChannels ?? 0,
    channelNames: parseChannelNames(v.channelNames),
    probes: v.probes ?? 0,
    lockBle: !!v.locks?.includes('ble'),
    lock4g: !!v.locks?.includes('4g'),
    valveSensors: v.valveSensors ?? 0,
    can: !!v.can,
    remark: (v.remark ?? '').trim(),
  };
}

export function toModelValues(m: DeviceModel | null): ModelFormValues {
  if (!m) return { name: '', kind: 'terminal', videoChannels: 0, probes: 0, valveSensors: 0, locks: [], can: false };
  return {
    name: m.name,
    kind: m.kind,
    manufacturer: m.manufacturer,
    videoChannels: m.videoChannels,
    channelNames: m.channelNames.join('\n'),
    probes: m.probes,
    locks: [...(m.lockBle ? (['ble'] as const) : []), ...(m.lock4g ? (['4g'] as const) : [])],
    valveSensors: m.valveSensors,
    can: m.can,
    remark: m.remark,
  };
}

/** The functions of a model as short labels (translation key and arguments), in a fixed order. */
export function functionLabels(m: Pick<DeviceModel, 'videoChannels' | 'probes' | 'lockBle' | 'lock4g' | 'valveSensors' | 'can'>): { key: string; n?: number }[] {
  const out: { key: string; n?: number }[] = [];
  if (m.videoChannels > 0) out.push({ key: 'equipment.fun.videoN', n: m.videoChannels });
  if (m.probes > 0) out.push({ key: 'equipment.fun.probesN', n: m.probes });
  if (m.lockBle) out.push({ key: 'equipment.fun.lockBle' });
  if (m.lock4g) out.push({ key: 'equipment.fun.lock4g' });
  if (m.valveSensors > 0) out.push({ key: 'equipment.fun.valvesN', n: m.valveSensors });
  if (m.can) out.push({ key: 'equipment.fun.can' });
  return out;
}
