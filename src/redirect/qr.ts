import QRCode from 'qrcode';

/**
 * A QR code of a link's short address by code (codes never change, so a printed code keeps working through
 * renames and destination changes). SVG by default; PNG on request.
 */
export async function qrCode(text: string, format: 'svg' | 'png'): Promise<{ type: string; body: string | Buffer }> {
  const options = { errorCorrectionLevel: 'M' as const, margin: 2 };
  if (format === 'png') return { type: 'image/png', body: await QRCode.toBuffer(text, { ...options, type: 'png', width: 512 }) };
  return { type: 'image/svg+xml', body: await QRCode.toString(text, { ...options, type: 'svg' }) };
}
