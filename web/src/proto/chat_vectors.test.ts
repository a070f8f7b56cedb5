import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { ChatMessageSchema, type ChatMessage } from './chat_pb';

// The vectors are shared with Go (proto/chatpb/vectors_test.go): both sides must write the same bytes.
interface Vector {
  name: string;
  fields: Record<string, string>;
  hex: string;
}
const vectors = JSON.parse(
  readFileSync(resolve(process.cwd(), '../proto/testdata/chat_vectors.json'), 'utf8'),
) as { encode: Vector[]; decode: Vector[] };

const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const fromHex = (h: string) => new Uint8Array((h.match(/../g) ?? []).map((x) => parseInt(x, 16)));

function fromFields(f: Record<string, string>): ChatMessage {
  return create(ChatMessageSchema, {
    id: BigInt(f.id ?? '0'),
    action: f.action ?? '',
    content: f.content ?? '',
    sender: f.sender ?? '',
    receiver: f.receiver ?? '',
    extra: f.extra ?? '',
    title: f.title ?? '',
    format: f.format ?? '',
    timestamp: BigInt(f.timestamp ?? '0'),
  });
}

function plain(m: ChatMessage) {
  const { id, action, content, sender, receiver, extra, title, format, timestamp } = m;
  return { id, action, content, sender, receiver, extra, title, format, timestamp };
}

describe('chat message vectors', () => {
  it.each(vectors.encode.map((v) => [v.name, v] as const))('encodes %s like Go', (_name, v) => {
    expect(toHex(toBinary(ChatMessageSchema, fromFields(v.fields)))).toBe(v.hex);
  });
  it.each([...vectors.encode, ...vectors.decode].map((v) => [v.name, v] as const))(
    'decodes %s',
    (_name, v) => {
      const m = fromBinary(ChatMessageSchema, fromHex(v.hex), { readUnknownFields: false });
      expect(plain(m)).toEqual(plain(fromFields(v.fields)));
    },
  );
});
