import { linkAddressesText } from './link-addresses.js';

interface TextContent {
  type: 'text';
  text: string;
}

/**
 * A successful tool result: the structured content, the same JSON as the first text item (clients that read only
 * text parse it), and, when the result returns links, a second text item naming their addresses; then the tool's
 * note, if any (define-tool.ts).
 */
export function toolResult(
  structured: Record<string, unknown>,
  note: string | null = null,
): { content: TextContent[]; structuredContent: Record<string, unknown> } {
  const content: TextContent[] = [{ type: 'text', text: JSON.stringify(structured) }];
  const addresses = linkAddressesText(structured);
  if (addresses !== null) content.push({ type: 'text', text: addresses });
  if (note !== null) content.push({ type: 'text', text: note });
  return { content, structuredContent: structured };
}
