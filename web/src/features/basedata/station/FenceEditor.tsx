import { ClearOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, InputNumber, Segmented, Space, Typography } from 'antd';
import L from 'leaflet';
import { useEffect, useRef, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { useMap } from 'react-leaflet';
import { fitMapTo, MapView, useTileSource } from '../../../components/map/MapView';
import { useResizeFix } from '../../../components/map/useResizeFix';
import {
  draftExtent,
  FENCE_CIRCLE,
  FENCE_POLYGON,
  fenceProblem,
  MAX_RADIUS,
  MIN_RADIUS,
  radiusHandle,
  type FenceAction,
  type FenceDraft,
  type FenceType,
  type LngLat,
} from '../../../lib/fence';
import { fromMapLatLng, toMapLatLng, type MapLatLng, type TileSource } from '../../../lib/mapCoords';

const vertexIcon = L.divIcon({ className: 'tw-fence-vertex', iconSize: [12, 12], iconAnchor: [6, 6] });
const handleIcon = L.divIcon({ className: 'tw-fence-handle', iconSize: [14, 14], iconAnchor: [7, 7] });

const toMap = (p: LngLat, source: TileSource): MapLatLng => toMapLatLng(p[0], p[1], source) ?? [p[1], p[0]];
const toWgs = (ll: L.LatLng, source: TileSource): LngLat => {
  const [lng, lat] = fromMapLatLng([ll.lat, ll.lng], source);
  return [Number(lng.toFixed(6)), Number(lat.toFixed(6))];
};

/** Draws the draft and turns clicks and drags into editor actions (positions converted to WGS-84). */
function EditLayer({ draft, dispatch }: { draft: FenceDraft; dispatch: Dispatch<FenceAction> }) {
  const map = useMap();
  const source = useTileSource();
  const fitted = useRef(false);
  // The fence the form opened with is in view: fit once the dialog has given the map its size (later
  // edits never move the map under the pointer).
  const initial = useRef({ draft, source });
  const fit = () => {
    if (fitted.current || map.getSize().x === 0) return;
    const ext = draftExtent(initial.current.draft).map((p) => toMap(p, initial.current.source));
    fitted.current = ext.length === 0 || fitMapTo(map, ext, 17);
  };
  useResizeFix(map, fit);

  useEffect(() => {
    const click = (e: L.LeafletMouseEvent) => dispatch({ kind: 'click', at: toWgs(e.latlng, source) });
    map.on('click', click);
    return () => {
      map.off('click', click);
    };
  }, [map, source, dispatch]);

  useEffect(fit);

  useEffect(() => {
    const g = L.layerGroup().addTo(map);
    const style = { color: '#1677ff', weight: 2, fillOpacity: 0.15 };
    if (draft.type === FENCE_POLYGON) {
      const pts = draft.points.map((p) => toMap(p, source));
      if (pts.length >= 3) g.addLayer(L.polygon(pts, { ...style, interactive: false }));
      else if (pts.length === 2) g.addLayer(L.polyline(pts, { ...style, interactive: false, dashArray: '4 4' }));
      pts.forEach((ll, index) => {
        const m = L.marker(ll, { icon: vertexIcon, draggable: true, title: String(index + 1), keyboard: false });
        m.on('dragend', () => dispatch({ kind: 'move', index, at: toWgs(m.getLatLng(), source) }));
        g.addLayer(m);
      });
    } else if (draft.center) {
      const c = toMap(draft.center, source);
      g.addLayer(L.circle(c, { ...style, radius: draft.radius, interactive: false }));
      g.addLayer(L.marker(c, { icon: vertexIcon, interactive: false, keyboard: false }));
      const h = radiusHandle(draft);
      if (h) {
        const m = L.marker(toMap(h, source), { icon: handleIcon, draggable: true, keyboard: false });
        m.on('dragend', () => dispatch({ kind: 'dragRadius', at: toWgs(m.getLatLng(), source) }));
        g.addLayer(m);
      }
    }
    map.getContainer().dataset.vertices = String(draft.type === FENCE_POLYGON ? draft.points.length : draft.center ? 1 : 0);
    return () => {
      g.remove();
    };
  }, [map, draft, source, dispatch]);
  return null;
}

/**
 * The station form's fence editor: polygon (click to add vertices, drag them, undo, clear) or circle
 * (click the centre, type the radius or drag its handle). Shows what is missing before it can be saved.
 */
export function FenceEditor({ draft, dispatch, center, showProblem }: { draft: FenceDraft; dispatch: Dispatch<FenceAction>; center?: [number, number]; showProblem: boolean }) {
  const { t } = useTranslation();
  const problem = fenceProblem(draft);
  const hint = draft.type === FENCE_POLYGON ? t('station.polygonHint', { n: draft.points.length }) : t('station.circleHint');
  return (
    <div className="tw-fence-editor" data-testid="fence-editor">
      <Space wrap className="tw-fence-tools">
        <Segmented<FenceType>
          value={draft.type}
          onChange={(type) => dispatch({ kind: 'type', type })}
          options={[
            { value: FENCE_POLYGON, label: t('station.fenceKind.1') },
            { value: FENCE_CIRCLE, label: t('station.fenceKind.2') },
          ]}
          data-testid="fence-type"
        />
        {draft.type === FENCE_CIRCLE && (
          <Space size={4}>
            <span>{t('station.raduis')}</span>
            <InputNumber
              min={MIN_RADIUS}
              max={MAX_RADIUS}
              precision={0}
              value={draft.radius}
              onChange={(v) => v != null && dispatch({ kind: 'radius', radius: v })}
              addonAfter={t('station.metres')}
              style={{ width: 150 }}
              data-testid="fence-radius"
            />
          </Space>
        )}
        <Button size="small" icon={<UndoOutlined />} onClick={() => dispatch({ kind: 'undo' })} disabled={draft.history.length === 0} data-testid="fence-undo">
          {t('station.undo')}
        </Button>
        <Button size="small" icon={<ClearOutlined />} onClick={() => dispatch({ kind: 'clear' })} data-testid="fence-clear">
          {t('station.clear')}
        </Button>
      </Space>
      <Typography.Text type="secondary" className="tw-fence-hint">
        {hint}
      </Typography.Text>
      <div className="tw-fence-map">
        <MapView center={center} zoom={center ? 14 : undefined} testId="fence-map">
          <EditLayer draft={draft} dispatch={dispatch} />
        </MapView>
      </div>
      {showProblem && problem && (
        <Typography.Text type="danger" data-testid="fence-problem">
          {t(problem, { min: MIN_RADIUS, max: MAX_RADIUS / 1000 })}
        </Typography.Text>
      )}
    </div>
  );
}
