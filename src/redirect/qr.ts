import QRCode from 'qrcode';
import { cacheStats } from '../support/cache-stats.js';
import { LruCache } from '../support/lru-cache.js';

export type QrFormat = 'svg' | 'png';

const MAX_CACHED = 2000;
const FORMATS: ReadonlySet<string> = new Set<QrFormat>(['svg', 'png']);

/** True for the formats `?format=` may ask for. */
export function isQrFormat(value: string): value is QrFormat {
  return FORMATS.has(value);
}

/**
 * QR codes of short addresses, by code (codes never change, so a printed code keeps working through renames and
 * destination changes). SVG by default; PNG on request. Drawing a PNG takes tens of milliseconds of the event
 * loop, so drawings are kept (they depend on the address alone) in a bounded cache.
 */
export class QrCodes {
  private readonly drawn = new LruCache<{ type: string; body: string | Buffer }>(MAX_CACHED, { stats: cacheStats('qr-codes') });

  async of(text: string, format: QrFormat): Promise<{ type: string; body: string | Buffer }> {
    const key = `${format} ${text}`;
    let image = this.drawn.get(key);
    if (!image) {
      image = await draw(text, format);
      this.drawn.set(key, image);
    }
    return image;
  }
}

async function draw(text: string, format: QrFormat): Promise<{ type: string; body: string | Buffer }> {
  const options = { errorCorrectionLevel: 'M' as const, margin: 2 };
  if (format === 'png') return { type: 'image/png', body: await QRCode.toBuffer(text, { ...options, type: 'png', width: 512 }) };
  return { type: 'image/svg+xml', body: await QRCode.toString(text, { ...options, type: 'svg' }) };
}
