import type L from 'leaflet';
import { clusterColor, markerStyle, VEHICLE_PALETTE } from '../../lib/vehicleColors';
import { buildIndex, clusterRadius, hitTest, visibleItems, type Hit, type VehicleIndex, type VehiclePoint } from './vehicleIndex';

/** Glyph size in CSS pixels. */
const GLYPH = 30;
/** Plates are written under the cars when at most this many are drawn on their own. */
const MAX_LABELS = 150;

/**
 * Draws vehicles on one canvas laid over a Leaflet map: arrows rotated by direction and coloured by
 * status, cluster bubbles with counts when zoomed out. The cluster index is rebuilt only when the points
 * change; the canvas is redrawn at most once per animation frame while the map moves, and hidden during
 * zoom animations. Hover shows the plate; a click selects a car or zooms into a cluster.
 */
export class VehicleCanvas {
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D | null;
  private readonly tip: HTMLDivElement;
  private points: readonly VehiclePoint[] = [];
  private index: VehicleIndex = buildIndex([]);
  private selectedId: number | null = null;
  private drawn: Hit[] = [];
  private frame = 0;
  private hoverFrame = 0;
  private hoverAt: L.Point | null = null;
  private dpr = 1;
  private sprites = new Map<string, HTMLCanvasElement>();
  private onSelect: ((carId: number) => void) | null = null;
  private readonly handlers: Record<string, L.LeafletEventHandlerFn>;

  constructor(private readonly map: L.Map) {
    const container = map.getContainer();
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'tw-vehicle-canvas';
    this.canvas.dataset.testid = 'map-vehicles';
    this.ctx = typeof this.canvas.getContext === 'function' ? safeContext(this.canvas) : null;
    container.appendChild(this.canvas);
    this.tip = document.createElement('div');
    this.tip.className = 'tw-vehicle-tip';
    this.tip.dataset.testid = 'map-hover-plate';
    this.tip.hidden = true;
    container.appendChild(this.tip);

    this.handlers = {
      move: () => this.schedule(),
      moveend: () => this.schedule(),
      zoomstart: () => {
        this.canvas.style.visibility = 'hidden';
        this.hideTip();
      },
      zoomend: () => {
        this.canvas.style.visibility = '';
        this.schedule();
      },
      resize: () => this.schedule(),
      mousemove: (e) => this.hover((e as L.LeafletMouseEvent).containerPoint),
      mouseout: () => {
        this.hoverAt = null;
        this.hideTip();
      },
      click: (e) => this.click((e as L.LeafletMouseEvent).containerPoint),
    };
    map.on(this.handlers);
    this.schedule();
  }

  remove(): void {
    this.map.off(this.handlers);
    cancelAnimationFrame(this.frame);
    cancelAnimationFrame(this.hoverFrame);
    this.canvas.remove();
    this.tip.remove();
    this.map.getContainer().style.cursor = '';
  }

  setPoints(points: readonly VehiclePoint[]): void {
    if (points === this.points) return;
    this.points = points;
    this.index = buildIndex(points);
    this.canvas.dataset.points = String(points.length);
    this.schedule();
  }

  setSelected(id: number | null | undefined): void {
    this.selectedId = id ?? null;
    this.schedule();
  }

  setOnSelect(fn: ((carId: number) => void) | null | undefined): void {
    this.onSelect = fn ?? null;
  }

  /** Redraw on the next animation frame (once, however often it is asked). */
  schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private resize(): { w: number; h: number } {
    const size = this.map.getSize();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(size.x * dpr);
    const h = Math.round(size.y * dpr);
    if (this.canvas.width !== w || this.canvas.height !== h || this.dpr !== dpr) {
      if (this.dpr !== dpr) this.sprites.clear();
      this.dpr = dpr;
      this.canvas.width = w;
      this.canvas.height = h;
      this.canvas.style.width = `${size.x}px`;
      this.canvas.style.height = `${size.y}px`;
    }
    return { w: size.x, h: size.y };
  }

  private draw(): void {
    const { w, h } = this.resize();
    const ctx = this.ctx;
    const b = this.map.getBounds();
    const zoom = this.map.getZoom();
    const items = visibleItems(this.index, this.points, [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], zoom);
    const drawn: Hit[] = [];
    const margin = 40;
    let cars = 0;
    let clusters = 0;
    const labelled: { x: number; y: number; plate: string }[] = [];
    let selected: { x: number; y: number; point: VehiclePoint } | null = null;

    if (ctx) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    }
    for (const item of items) {
      const lat = item.kind === 'car' ? item.point.lat : item.lat;
      const lng = item.kind === 'car' ? item.point.lng : item.lng;
      const p = this.map.latLngToContainerPoint([lat, lng]);
      if (p.x < -margin || p.y < -margin || p.x > w + margin || p.y > h + margin) continue;
      if (item.kind === 'cluster') {
        clusters++;
        const r = clusterRadius(item.count);
        if (ctx) this.drawCluster(ctx, p.x, p.y, r, item.count, item.abnormal);
        drawn.push({ x: p.x, y: p.y, r, item });
      } else {
        cars++;
        if (item.point.id === this.selectedId) {
          selected = { x: p.x, y: p.y, point: item.point };
          continue;
        }
        if (ctx) this.drawCar(ctx, p.x, p.y, item.point, false);
        drawn.push({ x: p.x, y: p.y, r: GLYPH / 2, item });
        labelled.push({ x: p.x, y: p.y, plate: item.point.plate });
      }
    }
    // The selected car is drawn on top and on its own even inside a cluster.
    if (!selected && this.selectedId != null) {
      const point = this.points.find((x) => x.id === this.selectedId);
      if (point) {
        const p = this.map.latLngToContainerPoint([point.lat, point.lng]);
        if (p.x >= -margin && p.y >= -margin && p.x <= w + margin && p.y <= h + margin) selected = { x: p.x, y: p.y, point };
      }
    }
    if (ctx) {
      if (labelled.length <= MAX_LABELS && zoom >= 11) for (const l of labelled) this.drawLabel(ctx, l.x, l.y, l.plate, false);
      if (selected) {
        this.drawCar(ctx, selected.x, selected.y, selected.point, true);
        this.drawLabel(ctx, selected.x, selected.y, selected.point.plate, true);
      }
    }
    if (selected) drawn.push({ x: selected.x, y: selected.y, r: GLYPH / 2 + 2, item: { kind: 'car', point: selected.point } });
    this.drawn = drawn;
    this.canvas.dataset.cars = String(cars);
    this.canvas.dataset.clusters = String(clusters);
    this.canvas.dataset.selected = selected ? String(selected.point.id) : '';
    if (this.hoverAt) this.hover(this.hoverAt);
  }

  private sprite(fill: string, stroke: string, strokeWidth: number): HTMLCanvasElement {
    const key = `${fill}|${stroke}|${strokeWidth}`;
    let s = this.sprites.get(key);
    if (s) return s;
    s = document.createElement('canvas');
    const px = Math.ceil(GLYPH * this.dpr);
    s.width = px;
    s.height = px;
    const c = s.getContext('2d');
    if (c) {
      c.scale(this.dpr, this.dpr);
      c.translate(GLYPH / 2, GLYPH / 2);
      c.scale(1.12, 1.12);
      c.shadowColor = VEHICLE_PALETTE.shadow;
      c.shadowBlur = 3;
      c.shadowOffsetY = 1;
      // a tanker seen from above, heading north: direction tip, cab with windscreen, tank
      c.lineJoin = 'round';
      c.beginPath();
      // cab with a pointed nose
      c.moveTo(0, -13);
      c.lineTo(5, -8);
      c.lineTo(5, -3.5);
      c.quadraticCurveTo(5, -2.5, 4, -2.5);
      c.lineTo(-4, -2.5);
      c.quadraticCurveTo(-5, -2.5, -5, -3.5);
      c.lineTo(-5, -8);
      c.closePath();
      roundRect(c, -5.5, -1, 11, 13, 5);
      c.fillStyle = fill;
      c.fill();
      c.shadowColor = 'transparent';
      c.lineWidth = strokeWidth;
      c.strokeStyle = stroke;
      c.stroke();
      c.fillStyle = 'rgba(255, 255, 255, 0.9)';
      c.fillRect(-3.2, -6.6, 6.4, 1.7);
      c.strokeStyle = 'rgba(255, 255, 255, 0.6)';
      c.lineWidth = 1;
      c.beginPath();
      c.moveTo(0, 2);
      c.lineTo(0, 9);
      c.stroke();
    }
    this.sprites.set(key, s);
    return s;
  }

  private drawCar(ctx: CanvasRenderingContext2D, x: number, y: number, p: VehiclePoint, selected: boolean): void {
    const style = markerStyle(p, selected);
    const dpr = this.dpr;
    if (style.ring) {
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.beginPath();
      ctx.arc(x, y, GLYPH / 2 + 1, 0, Math.PI * 2);
      ctx.fillStyle = 'rgba(22, 119, 255, 0.18)';
      ctx.fill();
      ctx.lineWidth = 2.5;
      ctx.strokeStyle = style.ring;
      ctx.stroke();
    }
    const a = ((p.direction % 360) * Math.PI) / 180;
    const cos = Math.cos(a) * dpr;
    const sin = Math.sin(a) * dpr;
    ctx.setTransform(cos, sin, -sin, cos, x * dpr, y * dpr);
    ctx.drawImage(this.sprite(style.fill, style.stroke, style.strokeWidth), -GLYPH / 2, -GLYPH / 2, GLYPH, GLYPH);
  }

  private drawLabel(ctx: CanvasRenderingContext2D, x: number, y: number, text: string, selected: boolean): void {
    const dpr = this.dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.font = `${selected ? 600 : 500} 12px system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif`;
    const tw = ctx.measureText(text).width;
    const bx = x - tw / 2 - 5;
    const by = y + GLYPH / 2;
    ctx.fillStyle = selected ? VEHICLE_PALETTE.selected : VEHICLE_PALETTE.labelBackground;
    ctx.beginPath();
    roundRect(ctx, bx, by, tw + 10, 18, 4);
    ctx.fill();
    if (!selected) {
      ctx.lineWidth = 1;
      ctx.strokeStyle = 'rgba(15, 23, 42, 0.15)';
      ctx.stroke();
    }
    ctx.fillStyle = selected ? '#ffffff' : VEHICLE_PALETTE.label;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, x, by + 9.5);
  }

  private drawCluster(ctx: CanvasRenderingContext2D, x: number, y: number, r: number, count: number, abnormal: number): void {
    const dpr = this.dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const color = clusterColor(count);
    ctx.beginPath();
    ctx.arc(x, y, r + 4, 0, Math.PI * 2);
    ctx.fillStyle = withAlpha(color, 0.25);
    ctx.fill();
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fillStyle = color;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = VEHICLE_PALETTE.outline;
    ctx.stroke();
    ctx.fillStyle = '#ffffff';
    ctx.font = '600 12px system-ui, -apple-system, "Segoe UI", sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(count >= 10000 ? `${Math.round(count / 1000)}k` : String(count), x, y + 0.5);
    if (abnormal > 0) {
      // a red badge: some cars in the cluster are abnormal
      const bx = x + r * 0.72;
      const by = y - r * 0.72;
      ctx.beginPath();
      ctx.arc(bx, by, 5, 0, Math.PI * 2);
      ctx.fillStyle = VEHICLE_PALETTE.abnormal;
      ctx.fill();
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = VEHICLE_PALETTE.outline;
      ctx.stroke();
    }
  }

  private hover(at: L.Point): void {
    this.hoverAt = at;
    if (this.hoverFrame) return;
    this.hoverFrame = requestAnimationFrame(() => {
      this.hoverFrame = 0;
      const pt = this.hoverAt;
      if (!pt) return;
      const hit = hitTest(this.drawn, pt.x, pt.y);
      this.map.getContainer().style.cursor = hit ? 'pointer' : '';
      if (hit && hit.item.kind === 'car') {
        this.tip.textContent = hit.item.point.plate;
        this.tip.style.transform = `translate(${Math.round(hit.x)}px, ${Math.round(hit.y - GLYPH / 2 - 6)}px) translate(-50%, -100%)`;
        this.tip.hidden = false;
      } else this.hideTip();
    });
  }

  private hideTip(): void {
    this.tip.hidden = true;
  }

  private click(at: L.Point): void {
    const hit = hitTest(this.drawn, at.x, at.y);
    if (!hit) return;
    if (hit.item.kind === 'car') {
      this.onSelect?.(hit.item.point.id);
      return;
    }
    let zoom = this.map.getZoom() + 2;
    try {
      zoom = this.index.getClusterExpansionZoom(hit.item.id);
    } catch {
      // a cluster of an older index: zoom in two steps
    }
    this.map.setView([hit.item.lat, hit.item.lng], Math.min(zoom, this.map.getMaxZoom()));
  }
}

function safeContext(canvas: HTMLCanvasElement): CanvasRenderingContext2D | null {
  try {
    return canvas.getContext('2d');
  } catch {
    return null; // jsdom without canvas support
  }
}

/** Adds a rounded rectangle sub-path (the caller begins and ends the path). */
function roundRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

function withAlpha(hex: string, alpha: number): string {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) return hex;
  const n = parseInt(m[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}
