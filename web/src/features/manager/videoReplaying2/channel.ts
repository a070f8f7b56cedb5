import { historyVideoControl, mediaSocketUrl, type ReplayInfo } from '../../../api/video';
import { STORAGE } from '../../../app/store';
import { closeCodeKey } from '../videoLive/logic';
import { createLivePlayer, livePlayerSupported, type LivePlayer } from '../videoLive/player';
import { ClipRecorder, mediaPosition } from '../videoReplaying/logic';

export type TileState = 'idle' | 'none' | 'requesting' | 'buffering' | 'playing' | 'paused' | 'ended' | 'failed';

/** How long a playing tile's picture may stand still (not held, not paused) before it counts as stalled. */
const STALL_MS = 1500;

/**
 * One channel's playback on the several-channel page: its playback token, player, clip and state, kept
 * outside React so that the sync loop reads and steers it four times a second without re-rendering.
 */
export class ReplayChannel {
  info: ReplayInfo | null = null;
  state: TileState = 'idle';
  /** Why it failed: a key under videoLive.reason, and the server's own words when it said them. */
  error = '';
  errorText = '';
  held = false;
  lastSeekAt: number | null = null;
  clip: ClipRecorder | null = null;
  private player: LivePlayer | null = null;
  private mediaTime: number | null = null;
  private lastPos: number | null = null;
  private lastMove = 0;
  video: HTMLVideoElement | null = null;

  constructor(
    readonly channelNo: number,
    private readonly changed: () => void,
  ) {}

  /** Media time of the picture shown (Unix ms), or null before the first. */
  position(): number | null {
    return this.video ? mediaPosition(this.mediaTime, this.video.currentTime) : null;
  }

  /** Playing and not stalled (a held tile counts: the sync paused it). */
  running(now: number): boolean {
    if (this.state !== 'playing') return false;
    const pos = this.position();
    if (pos === null) return false;
    if (pos !== this.lastPos || this.held) {
      this.lastPos = pos;
      this.lastMove = now;
    }
    return now - this.lastMove < STALL_MS;
  }

  /** A new player on the playback's socket: at the start and after every seek (a seek is a new generation, D84). */
  attach(rate: number): void {
    this.destroyPlayer();
    const v = this.video;
    const p = this.info;
    if (!v || !p) return;
    if (!livePlayerSupported()) return this.fail('unsupported');
    this.mediaTime = null;
    this.lastPos = null;
    this.held = false;
    this.state = 'buffering';
    const clip = new ClipRecorder();
    this.clip = clip;
    const player = createLivePlayer(
      v,
      mediaSocketUrl(p.flvUrl, localStorage.getItem(STORAGE.token) ?? ''),
      {
        onClose: (code, opened) => {
          if (this.player !== player) return;
          if (opened && code === 4404) {
            this.state = 'ended';
            this.changed();
          } else this.fail(opened ? closeCodeKey(code) : 'refused');
        },
        onError: () => {
          if (this.player === player) this.fail('media');
        },
        onData: (chunk) => clip.push(chunk),
        onMediaTime: (ms) => {
          if (this.player === player) this.mediaTime = ms;
        },
      },
      true,
      false, // no sound in several-channel replay: an AAC track would hold the picture when the terminal stops sound away from 1×
    );
    this.player = player;
    v.playbackRate = rate;
    this.changed();
  }

  /** The picture has come (called from the sync loop and the element's events). */
  notice(): void {
    const v = this.video;
    if (this.state === 'buffering' && v && v.videoWidth > 0 && v.currentTime > 0 && this.mediaTime !== null) {
      this.state = 'playing';
      this.lastMove = performance.now();
      this.changed();
    }
  }

  fail(key: string, text = ''): void {
    this.destroyPlayer();
    this.state = 'failed';
    this.error = key;
    this.errorText = text;
    this.changed();
  }

  /** Sends a playback command; the terminal's answer decides (a refusal is the tile's error). */
  async control(command: 'pause' | 'resume' | 'speed' | 'seek', extra: { speed?: number; position?: number } = {}): Promise<boolean> {
    const p = this.info;
    if (!p) return false;
    try {
      await historyVideoControl(p.carId, p.token, command, extra, false);
      return true;
    } catch (e) {
      this.fail('failed', e instanceof Error ? e.message : String(e));
      return false;
    }
  }

  /** Ends the playback here and on the terminal. */
  stop(): void {
    const p = this.info;
    this.destroyPlayer();
    if (p) void historyVideoControl(p.carId, p.token, 'stop', {}, false).catch(() => undefined);
    this.info = null;
    this.held = false;
    this.state = 'idle';
    this.error = '';
    this.errorText = '';
  }

  private destroyPlayer(): void {
    this.player?.destroy();
    this.player = null;
    const v = this.video;
    if (v) {
      v.removeAttribute('src');
      v.load();
    }
  }
}
