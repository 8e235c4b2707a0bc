import { crc32, deflateSync } from 'node:zlib';

/**
 * A small bar chart as a PNG, for the demo articles' figures and the test manuscripts: pixels drawn by hand
 * (bars on a white ground with an axis), encoded with Node's zlib. No image library is needed for this.
 */
export function barChartPng(
  values: readonly number[],
  opts: { width?: number; height?: number; colour?: [number, number, number] } = {},
): Buffer {
  const width = opts.width ?? 480;
  const height = opts.height ?? 270;
  const [r, g, b] = opts.colour ?? [0x1f, 0x4e, 0x79];
  const pixels = Buffer.alloc(width * height * 3, 0xff);
  const set = (x: number, y: number, c: [number, number, number]) => {
    const at = (y * width + x) * 3;
    pixels[at] = c[0];
    pixels[at + 1] = c[1];
    pixels[at + 2] = c[2];
  };
  const margin = 24;
  const max = Math.max(...values, 1);
  const slot = (width - 2 * margin) / values.length;
  values.forEach((v, i) => {
    const top = Math.round(height - margin - ((height - 2 * margin) * v) / max);
    const left = Math.round(margin + i * slot + slot * 0.15);
    const right = Math.round(margin + (i + 1) * slot - slot * 0.15);
    for (let y = top; y < height - margin; y++) for (let x = left; x < right; x++) set(x, y, [r, g, b]);
  });
  for (let x = margin; x < width - margin; x++) set(x, height - margin, [0x33, 0x33, 0x33]);
  for (let y = margin; y <= height - margin; y++) set(margin, y, [0x33, 0x33, 0x33]);
  // Each scanline starts with filter type 0 (none).
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++)
    pixels.copy(raw, y * (width * 3 + 1) + 1, y * width * 3, (y + 1) * width * 3);
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
