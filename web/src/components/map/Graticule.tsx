import L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';

const STEPS = [20, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005];

/** Grid spacing (degrees) for a zoom: about one line per 256-px tile. */
export function graticuleStep(zoom: number): number {
  const perTile = 360 / 2 ** zoom;
  return STEPS.find((s) => s <= perTile) ?? STEPS[STEPS.length - 1];
}

function fmt(v: number, step: number, pos: string, neg: string): string {
  const digits = step >= 1 ? 0 : Math.min(4, Math.ceil(-Math.log10(step)));
  return `${Math.abs(v).toFixed(digits)}°${v >= 0 ? pos : neg}`;
}

/**
 * A degree grid as tiles (it pans and zooms with the map for free): the background of a map without
 * tiles, so an operator still sees where things are.
 */
const GraticuleGrid = L.GridLayer.extend({
  createTile(this: L.GridLayer, coords: L.Coords) {
    const tile = document.createElement('canvas');
    const size = this.getTileSize();
    const dpr = window.devicePixelRatio || 1;
    tile.width = size.x * dpr;
    tile.height = size.y * dpr;
    let ctx: CanvasRenderingContext2D | null = null;
    try {
      ctx = tile.getContext('2d');
    } catch {
      ctx = null;
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const map = (this as any)._map as L.Map | undefined;
    if (!ctx || !map) return tile;
    ctx.scale(dpr, dpr);
    // Opaque like map tiles: Leaflet keeps the previous zoom's tiles under new ones for a while.
    ctx.fillStyle = '#eef2f6';
    ctx.fillRect(0, 0, size.x, size.y);
    const nw = map.unproject([coords.x * size.x, coords.y * size.y], coords.z);
    const se = map.unproject([(coords.x + 1) * size.x, (coords.y + 1) * size.y], coords.z);
    const step = graticuleStep(coords.z);
    // labels in every third tile row/column only, so the grid does not read like a spreadsheet
    ctx.strokeStyle = 'rgba(71, 85, 105, 0.22)';
    ctx.fillStyle = 'rgba(71, 85, 105, 0.75)';
    ctx.lineWidth = 1;
    ctx.font = '10px system-ui, sans-serif';
    const x0 = Math.ceil(nw.lng / step) * step;
    for (let lng = x0; lng <= se.lng + 1e-9; lng += step) {
      const px = map.project([0, lng], coords.z).x - coords.x * size.x;
      ctx.beginPath();
      ctx.moveTo(Math.round(px) + 0.5, 0);
      ctx.lineTo(Math.round(px) + 0.5, size.y);
      ctx.stroke();
      if (coords.y % 3 === 0) {
        // right of the line, or left of it where the next (opaque) tile would cover the text
        const text = fmt(lng, step, 'E', 'W');
        const w = ctx.measureText(text).width;
        ctx.fillText(text, px + 3 + w > size.x ? px - 3 - w : px + 3, 11);
      }
    }
    const y0 = Math.ceil(se.lat / step) * step;
    for (let lat = y0; lat <= nw.lat + 1e-9; lat += step) {
      const py = map.project([lat, 0], coords.z).y - coords.y * size.y;
      ctx.beginPath();
      ctx.moveTo(0, Math.round(py) + 0.5);
      ctx.lineTo(size.x, Math.round(py) + 0.5);
      ctx.stroke();
      if (coords.x % 3 === 0) ctx.fillText(fmt(lat, step, 'N', 'S'), 3, py - 12 < 0 ? py + 11 : py - 3);
    }
    return tile;
  },
}) as unknown as new (options: L.GridLayerOptions) => L.GridLayer;

/** Grid layer (under any tiles); `label`, when given, is its attribution (e.g. "no base map"). */
export function Graticule({ label }: { label: string }) {
  const map = useMap();
  useEffect(() => {
    const layer = new GraticuleGrid({ zIndex: 0, updateWhenZooming: false });
    layer.getAttribution = () => label || null;
    layer.addTo(map);
    return () => {
      layer.remove();
    };
  }, [map, label]);
  return null;
}
