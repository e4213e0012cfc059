import type { Page } from 'playwright-core';

/** What walking a page with the Tab key found wrong: steps that went back up or left, and controls never reached. */
export interface FocusWalk {
  backwards: string[];
  unreached: string[];
}

/**
 * Walks the page with Tab from its top and checks the keyboard's path against what the eye reads: each step lands
 * further down, or further right on the same line (no styles that reorder controls, no tabindex that jumps about),
 * and every visible control (links, buttons, fields, the clicks chart's bars) is reached on the way. Runs in the
 * page, through the DevTools protocol as axe does.
 */
export async function walkWithTab(page: Page, maxSteps = 250): Promise<FocusWalk> {
  await page.evaluate(() => {
    const w = window as unknown as { __reached: Element[] };
    w.__reached = [];
    document.addEventListener('focusin', (event) => w.__reached.push(event.target as Element));
    (document.activeElement as HTMLElement | null)?.blur();
  });
  // A click on the page's top corner, outside every control, starts the keyboard's path at the top, as on a
  // page just loaded (a page shown after a form keeps the form's place otherwise).
  await page.mouse.click(1, 1);
  for (let step = 0; step < maxSteps; step++) {
    await page.keyboard.press('Tab');
    // Past the last control focus leaves the page, or wraps to a control already reached: the walk is over.
    const done = await page.evaluate(() => {
      const reached = (window as unknown as { __reached: Element[] }).__reached;
      const last = document.activeElement;
      return last === null || last === document.body || reached.indexOf(last) < reached.length - 1;
    });
    if (done) break;
  }
  return page.evaluate(() => {
    const reached = (window as unknown as { __reached: Element[] }).__reached;
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : ''} “${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}”`;
    // Where each control is drawn, from the top of the document: the path a sighted keyboard user sees.
    // A chart bar's place is its hit area: its hidden value label may sit left of it, kept inside the drawing.
    const at = (el: Element) => {
      const box = (el.querySelector(':scope > rect.hit') ?? el).getBoundingClientRect();
      return { top: box.top + window.scrollY, bottom: box.bottom + window.scrollY, left: box.left + window.scrollX };
    };
    const backwards: string[] = [];
    for (let i = 1; i < reached.length; i++) {
      if (reached.indexOf(reached[i]!) !== i) continue; // a wrap back to a control already reached ends the walk
      const [from, to] = [at(reached[i - 1]!), at(reached[i]!)];
      // Wholly above the last stop, or beside it (the two overlap up and down: a line of controls of different
      // heights) but to its left.
      const above = to.bottom <= from.top;
      const besideLeft = to.top < from.bottom && from.top < to.bottom && to.left < from.left;
      if (above || besideLeft) backwards.push(`${name(reached[i - 1]!)} → ${name(reached[i]!)}`);
    }
    const controls = [...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, [tabindex="0"]')].filter((el) => {
      const box = (el as HTMLElement).getBoundingClientRect();
      // checkVisibility: not inside a folded disclosure (a closed <details>), whose controls Tab rightly skips.
      return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden' && el.checkVisibility() && !(el as HTMLButtonElement).disabled;
    });
    const seen = new Set(reached);
    // Tab stops once in a group of radio buttons, at the checked one; the arrow keys move within it. A radio button is
    // reached when its group is.
    const groupOf = (el: Element) =>
      el instanceof HTMLInputElement && el.type === 'radio' ? `${[...document.forms].indexOf(el.form!)} ${el.name}` : null;
    const groups = new Set(reached.map(groupOf).filter((group) => group !== null));
    return { backwards, unreached: controls.filter((el) => !seen.has(el) && !groups.has(groupOf(el))).map(name) };
  });
}
