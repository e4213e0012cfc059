import QRCode from 'qrcode';
import { markedForQr } from '../../domain/qr-address.js';
import { linksIn } from '../link-addresses.js';
import { CLICKS_CHART_URI, LINK_CARD_URI, viewOfTool } from './extension.js';

/** Where a result's `_meta` carries the QR codes the link card draws, by link code. */
export const QR_META_KEY = 'shortlinks/qrCodes';

/**
 * What a view needs beyond the structured content, which stays exactly as every other client gets it: for the link
 * card, each link's QR code as rows of modules ("1" dark), drawn here because the card may fetch nothing and
 * carries no QR encoder. The card builds its picture from these bits with DOM calls, so no markup travels.
 */
export function viewData(toolName: string, structured: unknown): Record<string, unknown> | null {
  if (viewOfTool(toolName) !== LINK_CARD_URI) return null;
  const codes: Record<string, string[]> = {};
  // At the link's address: its team's domain, or PUBLIC_URL.
  for (const link of linksIn(structured)) codes[link.code] = qrRows(markedForQr(link.shortUrl));
  return { [QR_META_KEY]: codes };
}

/** Where a linkClicks result's `_meta` carries the address the clicks chart titles its link by. */
export const ADDRESS_META_KEY = 'shortlinks/address';

/**
 * For the clicks chart: the link's short address by code at its team's address (its primary domain, or PUBLIC_URL),
 * which linkClicks' answer (the spec's) does not hold; null for another view, or a code that is no link.
 */
export async function chartAddress(toolName: string, input: unknown, addressOf: (code: string) => Promise<string | null>): Promise<Record<string, unknown> | null> {
  const code = (input as { code?: unknown } | null)?.code;
  if (viewOfTool(toolName) !== CLICKS_CHART_URI || typeof code !== 'string') return null;
  const address = await addressOf(code);
  return address === null ? null : { [ADDRESS_META_KEY]: address };
}

/** The same symbol as `/<code>/qr` draws (error correction M), as rows of "0" and "1". */
function qrRows(text: string): string[] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const rows: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    let bits = '';
    for (let col = 0; col < modules.size; col++) bits += modules.get(row, col) ? '1' : '0';
    rows.push(bits);
  }
  return rows;
}
