import { decodeG711 } from '../../../lib/g711';

/**
 * Plays a stream's G.711 audio socket (`audioUrl`): each message is the payload type (6 A-law, 7 μ-law)
 * then 8 kHz mono samples, decoded by web/src/lib/g711.ts and scheduled back to back on an AudioContext.
 * A late message is played at once rather than stacking delay (at most ~0.5 s ahead is kept).
 */
export class G711Player {
  private ws: WebSocket | null = null;
  private ctx: AudioContext | null = null;
  private next = 0;
  private closed = false;
  private analyser: AnalyserNode | null = null;
  /** Samples decoded and scheduled so far. */
  samples = 0;

  constructor(
    private readonly url: string,
    private readonly onEnd?: (code: number) => void,
  ) {}

  start(): void {
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    this.ctx = new Ctx();
    // every buffer plays through an analyser, so the tile can say how loud what is heard is (level())
    this.analyser = this.ctx.createAnalyser();
    this.analyser.fftSize = 1024;
    this.analyser.connect(this.ctx.destination);
    void this.ctx.resume().catch(() => undefined);
    const ws = new WebSocket(this.url);
    ws.binaryType = 'arraybuffer';
    ws.onmessage = (e) => {
      if (e.data instanceof ArrayBuffer) this.play(new Uint8Array(e.data));
    };
    ws.onclose = (e) => {
      if (!this.closed) this.onEnd?.(e.code);
    };
    this.ws = ws;
  }

  private play(msg: Uint8Array): void {
    const ctx = this.ctx;
    if (!ctx || msg.length < 2) return;
    const pt = msg[0];
    if (pt !== 6 && pt !== 7) return;
    const pcm = decodeG711(msg.subarray(1), pt === 6 ? 'alaw' : 'ulaw');
    const buf = ctx.createBuffer(1, pcm.length, 8000);
    buf.copyToChannel(pcm as Float32Array<ArrayBuffer>, 0);
    const src = ctx.createBufferSource();
    src.buffer = buf;
    src.connect(this.analyser ?? ctx.destination);
    const now = ctx.currentTime;
    if (this.next < now + 0.02 || this.next > now + 0.5) this.next = now + 0.05;
    src.start(this.next);
    this.next += buf.duration;
    this.samples += pcm.length;
  }

  /** The level (RMS, 0–1) of the sound playing now, read from the audio graph's output. */
  level(): number {
    const a = this.analyser;
    if (!a || this.ctx?.state !== 'running') return 0;
    const d = new Float32Array(a.fftSize);
    a.getFloatTimeDomainData(d);
    let sum = 0;
    for (const x of d) sum += x * x;
    return Math.sqrt(sum / d.length);
  }

  stop(): void {
    this.closed = true;
    if (this.ws) {
      this.ws.onmessage = null;
      this.ws.onclose = null;
      this.ws.close();
      this.ws = null;
    }
    void this.ctx?.close().catch(() => undefined);
    this.ctx = null;
    this.analyser = null;
  }
}
