/**
 * A WebSocket client at the byte level, for the stream fuzz
 * (tests/live/stream-fuzz.test.ts): it writes the upgrade request and any
 * frames in one packet (frames sent before the server authenticated the
 * key), builds frames a WebSocket library refuses to send (unmasked,
 * reserved bits, unknown opcodes, invalid UTF-8, lengths that lie), can stop
 * reading (a slow reader), and reports what the server sent: the handshake
 * status, every text message, and the close code (1006 when the connection
 * ended without a close frame).
 */
import crypto from 'node:crypto';
import net from 'node:net';

export const OP = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

export interface FrameOptions {
  opcode?: number;
  fin?: boolean;
  /** Masked as a client must (RFC 6455 5.1); false sends the payload in the clear. */
  mask?: boolean;
  /** The reserved bits RSV1..RSV3 (0..7). */
  rsv?: number;
  /** A declared payload length that is not the payload's (the frame then lies). */
  declaredLength?: number;
}

/** One frame as a client sends it. */
export function frame(
  payload: Buffer | string = Buffer.alloc(0),
  { opcode = OP.text, fin = true, mask = true, rsv = 0, declaredLength }: FrameOptions = {},
): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const length = declaredLength ?? data.length;
  let header: Buffer;
  if (length < 126) {
    header = Buffer.alloc(2);
    header[1] = length;
  } else if (length < 0x10000) {
    header = Buffer.alloc(4);
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else {
    header = Buffer.alloc(10);
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  header[0] = (fin ? 0x80 : 0) | ((rsv & 7) << 4) | (opcode & 0x0f);
  if (!mask) return Buffer.concat([header, data]);
  header[1]! |= 0x80;
  const key = crypto.randomBytes(4);
  const masked = Buffer.from(data);
  for (let i = 0; i < masked.length; i++) masked[i]! ^= key[i % 4]!;
  return Buffer.concat([header, key, masked]);
}

/** A close frame with a code (and reason); no code: an empty close frame. */
export function closeFrame(code?: number, reason = ''): Buffer {
  if (code === undefined) return frame(Buffer.alloc(0), { opcode: OP.close });
  const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
  payload.writeUInt16BE(code, 0);
  payload.write(reason, 2);
  return frame(payload, { opcode: OP.close });
}

export interface RawStreamOptions {
  /** Header lines of the upgrade request beside the required ones (`X-Forwarded-For`, or a bad `Sec-WebSocket-Version`). */
  headers?: Record<string, string | undefined>;
  /** Bytes written in the same write as the upgrade request: frames the server reads before it answered the upgrade. */
  head?: Buffer;
  /** Answer the server's pings (true), as every WebSocket client library does. */
  autoPong?: boolean;
  /** Do not read at all until resume() (a slow reader). */
  paused?: boolean;
  /** The request's method (a handshake is a GET). */
  method?: string;
}

export interface RawStream {
  socket: net.Socket;
  /** The handshake's HTTP status (101 when upgraded; 0 when the connection ended before a status line). */
  status: Promise<number>;
  /** Text messages received, in order. */
  texts: string[];
  /** Binary messages received. */
  binaries: number;
  /** The first close frame's code and reason once the connection ended (1006 without one). */
  closed: Promise<{ code: number; reason: string }>;
  /** Writes bytes (frames); resolves once they are handed to the kernel, rejects when the connection is gone. */
  write(data: Buffer): Promise<void>;
  /** Resolves once `count` text messages arrived (rejects when the connection ends first). */
  received(count: number): Promise<string[]>;
  /** Starts reading (after `paused`). */
  resume(): void;
  /** Resets the connection (a client that vanishes). */
  reset(): void;
}

/** Opens a connection to `url` (ws://host:port/path?query) and sends the upgrade request. */
export function rawStream(url: string, { headers = {}, head, autoPong = true, paused = false, method = 'GET' }: RawStreamOptions = {}): RawStream {
  const target = new URL(url);
  const socket = net.connect({ host: target.hostname, port: Number(target.port) });
  // The server may reset the connection (a refused upgrade, a terminated socket): that ends it like a close.
  socket.on('error', () => {});
  if (paused) socket.pause();
  const lines = [
    `${method} ${target.pathname}${target.search} HTTP/1.1`,
    `Host: ${target.host}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}`,
    'Sec-WebSocket-Version: 13',
  ];
  const extra = Object.entries(headers);
  const request = [
    ...lines.filter((l) => !extra.some(([name]) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))),
    ...extra.filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(Buffer.concat([Buffer.from(`${request.join('\r\n')}\r\n\r\n`), head ?? Buffer.alloc(0)]));

  const texts: string[] = [];
  let binaries = 0;
  let buffer: Buffer = Buffer.alloc(0);
  let inHead = true;
  let fragments: Buffer[] | null = null;
  let fragmentOpcode = 0;
  let close: { code: number; reason: string } | null = null;
  let setStatus!: (s: number) => void;
  const status = new Promise<number>((resolve) => (setStatus = resolve));
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  let ended = false;

  const parse = () => {
    if (inHead) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const statusLine = buffer.subarray(0, buffer.indexOf('\r\n')).toString();
      setStatus(Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0));
      buffer = buffer.subarray(end + 4);
      inHead = false;
    }
    for (;;) {
      if (buffer.length < 2) return;
      const fin = (buffer[0]! & 0x80) !== 0;
      const opcode = buffer[0]! & 0x0f;
      const masked = (buffer[1]! & 0x80) !== 0;
      let length = buffer[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return;
        length = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      const maskKey = masked ? buffer.subarray(offset, offset + 4) : null;
      if (masked) offset += 4;
      if (buffer.length < offset + length) return;
      const payload = Buffer.from(buffer.subarray(offset, offset + length));
      if (maskKey) for (let i = 0; i < payload.length; i++) payload[i]! ^= maskKey[i % 4]!;
      buffer = buffer.subarray(offset + length);
      if (opcode === OP.close) {
        if (!close) {
          close = payload.length >= 2 ? { code: payload.readUInt16BE(0), reason: payload.subarray(2).toString() } : { code: 1005, reason: '' };
          // The closing handshake: answer with a close frame, then the server ends the connection.
          if (!socket.destroyed) socket.write(closeFrame(close.code === 1005 ? undefined : close.code));
        }
      } else if (opcode === OP.ping) {
        if (autoPong && !close && !socket.destroyed) socket.write(frame(payload, { opcode: OP.pong }));
      } else if (opcode === OP.pong) {
        // Nothing asked for it.
      } else if (opcode === OP.continuation || !fin) {
        if (opcode !== OP.continuation) {
          fragments = [];
          fragmentOpcode = opcode;
        }
        fragments?.push(payload);
        if (fin && fragments) {
          const whole = Buffer.concat(fragments);
          fragments = null;
          if (fragmentOpcode === OP.text) texts.push(whole.toString());
          else binaries++;
        }
      } else if (opcode === OP.text) texts.push(payload.toString());
      else binaries++;
      wake();
    }
  };

  socket.on('data', (chunk: Buffer) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    parse();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.once('close', () => {
      ended = true;
      setStatus(0);
      resolve(close ?? { code: 1006, reason: '' });
      wake();
    });
  });

  return {
    socket,
    status,
    texts,
    get binaries() {
      return binaries;
    },
    closed,
    write: (data) =>
      new Promise<void>((resolve, reject) => {
        if (socket.destroyed) return reject(new Error('the connection is closed'));
        socket.write(data, (err) => (err ? reject(err) : resolve()));
      }),
    received: (count) =>
      new Promise<string[]>((resolve, reject) => {
        const look = () => {
          if (texts.length >= count) {
            waiters.delete(look);
            resolve(texts.slice(0, count));
          } else if (ended) {
            waiters.delete(look);
            reject(new Error(`the connection ended after ${texts.length} of ${count} messages: ${JSON.stringify(texts.slice(-5))}`));
          }
        };
        waiters.add(look);
        look();
      }),
    resume: () => socket.resume(),
    reset: () => socket.resetAndDestroy(),
  } satisfies RawStream;
}
