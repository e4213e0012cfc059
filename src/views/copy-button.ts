import { html, type Html } from './html.js';

/**
 * A Copy button for an address, `hidden` until the page script (web/pages/page-script.ts) shows it: without
 * JavaScript or a clipboard there is no button that does nothing, and the address is there to select. `name`, for
 * a value not to be read out (a secret), is what the button's label and the status line call it instead.
 */
export function copyButton(address: string, name = address): Html {
  const copied = name === address ? html`` : html` data-copied="${name}"`;
  return html`<button type="button" class="quiet" data-copy="${address}"${copied} aria-label="Copy ${name}" hidden>Copy</button>`;
}

/** Where the script says what it copied; one per page. */
export const COPIED_STATUS = html`<p class="copied" role="status" id="copied"></p>`;

/** A list item of an address to read, follow and (with the script on) copy. */
export function copyableAddress(address: string): Html {
  return html`<li><a href="${address}">${address}</a> ${copyButton(address)}</li>`;
}
