import mpegts from 'mpegts.js';

/**
 * An FLV-over-WebSocket live player (mpegts.js, D78) for one tile. mpegts.js's own WebSocket loader drops
 * the close code, and the relay says why a stream ends by it (4404 ended, 4415 H.265, 4401 sign-in
 * expired), so the player uses a small loader of its own that reports the code.
 */
export interface LivePlayerEvents {
  /** The media socket closed by itself: its code, and whether it had opened (a refused URL never opens). */
  onClose: (code: number, opened: boolean) => void;
  /** The player failed (media or decoding). */
  onError: (detail: string) => void;
  /** Every chunk of FLV received (replay keeps them to save the clip). */
  onData?: (chunk: ArrayBuffer) => void;
  /** The device time (Unix ms) of the first picture, from the replay stream's onMetaData (D84). */
  onMediaTime?: (ms: number) => void;
}

export interface LivePlayer {
  destroy(): void;
  /** Whether the FLV brought an audio track (AAC) that this player plays. */
  hasAudio(): boolean;
}

type Loader = InstanceType<typeof mpegts.BaseLoader> & {
  _onDataArrival: ((chunk: ArrayBuffer, byteStart: number, received?: number) => void) | null;
  _onComplete: ((from: number, to: number) => void) | null;
};

function loaderClass(events: LivePlayerEvents): NonNullable<mpegts.Config['customLoader']> {
  const Base = mpegts.BaseLoader as unknown as new (name: string) => Loader;
  class CloseCodeLoader extends Base {
    private ws: WebSocket | null = null;
    private aborted = false;
    private received = 0;
    private opened = false;

    constructor() {
      super('tw-websocket-loader');
      this._needStash = true;
    }

    destroy(): void {
      this.abort();
      super.destroy();
    }

    open(source: { url: string }): void {
      const ws = new WebSocket(source.url);
      ws.binaryType = 'arraybuffer';
      this._status = 1; // connecting
      ws.onopen = () => {
        this.opened = true;
        this._status = 2; // buffering
      };
      ws.onmessage = (e) => {
        if (!(e.data instanceof ArrayBuffer)) return;
        const start = this.received;
        this.received += e.data.byteLength;
        events.onData?.(e.data);
        this._onDataArrival?.(e.data, start, this.received);
      };
      ws.onclose = (e) => {
        if (this.aborted) return;
        this._status = 4; // complete
        events.onClose(e.code, this.opened);
      };
      this.ws = ws;
    }

    abort(): void {
      this.aborted = true;
      const ws = this.ws;
      this.ws = null;
      if (ws && (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN)) ws.close();
      this._status = 4;
    }
  }
  return CloseCodeLoader as unknown as NonNullable<mpegts.Config['customLoader']>;
}

export function livePlayerSupported(): boolean {
  return mpegts.isSupported();
}

/**
 * Plays `url` (ws(s)://…/video-app/live/{token}/flv?token=…) into `video`. The FLV header says whether an
 * audio track follows: only AAC from the device is kept in the FLV (G.711 goes on its own socket), so
 * hasAudio is left to the header (forcing it false would drop AAC; true would wait for audio forever).
 * `audio` false drops the FLV's AAC: a playback away from 1× gets no sound from the terminal, and an
 * element whose audio track runs dry stops its picture too (the AAC camera's replay stood still at 4×).
 */
export function createLivePlayer(video: HTMLVideoElement, url: string, events: LivePlayerEvents, replay = false, audio = true): LivePlayer {
  const player = mpegts.createPlayer(
    { type: 'flv', isLive: true, url, hasVideo: true, ...(audio ? {} : { hasAudio: false }) },
    {
      enableWorker: false,
      enableStashBuffer: false,
      lazyLoad: false,
      // replay plays what the terminal sends at the chosen speed: chasing the live edge would skip it
      liveBufferLatencyChasing: !replay,
      liveBufferLatencyMaxLatency: 1.5,
      liveBufferLatencyMinRemain: 0.3,
      customLoader: loaderClass(events),
    },
  );
  player.on(mpegts.Events.ERROR, (type: string, detail: string) => events.onError(`${type}: ${detail}`));
  player.on(mpegts.Events.METADATA_ARRIVED, (meta: { mediaTime?: unknown }) => {
    if (typeof meta?.mediaTime === 'number') events.onMediaTime?.(meta.mediaTime);
  });
  player.attachMediaElement(video);
  player.load();
  const p = player.play();
  if (p && typeof (p as Promise<void>).catch === 'function') (p as Promise<void>).catch(() => undefined);
  let done = false;
  return {
    hasAudio: () => !!(player.mediaInfo as { hasAudio?: boolean } | undefined)?.hasAudio,
    destroy() {
      if (done) return;
      done = true;
      try {
        player.pause();
        player.unload();
        player.detachMediaElement();
      } finally {
        player.destroy();
      }
    },
  };
}
