import { describe, expect, it } from 'vitest';
import { mediaSocketUrl } from './video';

describe('mediaSocketUrl', () => {
  it('opens the stream path on the page host with the viewer token', () => {
    expect(mediaSocketUrl('/video-app/live/abc/flv', 'tk+/=', '', { protocol: 'http:', host: 'h:8080' })).toBe('ws://h:8080/video-app/live/abc/flv?token=tk%2B%2F%3D');
    expect(mediaSocketUrl('/video-app/live/abc/g711', 't', '/api/', { protocol: 'https:', host: 'h' })).toBe('wss://h/api/video-app/live/abc/g711?token=t');
  });
  it('follows an absolute API base', () => {
    expect(mediaSocketUrl('/video-app/live/abc/flv', 't', 'https://api.example.com/', { protocol: 'http:', host: 'x' })).toBe('wss://api.example.com/video-app/live/abc/flv?token=t');
  });
});
