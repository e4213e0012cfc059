import { readFileSync } from 'node:fs';
import type { Express } from 'express';
import { dataPath } from '../../paths.js';

/** The icon browsers show in tabs and bookmarks: SVG for those that take it, ICO for those that ask by the old name. */
const ICONS = {
  '/favicon.svg': { type: 'image/svg+xml', body: readFileSync(dataPath('favicon.svg')) },
  '/favicon.ico': { type: 'image/x-icon', body: readFileSync(dataPath('favicon.ico')) },
};

export function faviconRoutes(app: Express): void {
  for (const [path, icon] of Object.entries(ICONS)) {
    app.get(path, (_req, res) => {
      // Browsers ask for the icon on every page load; a day of caching spares them and us.
      res.set({ 'Content-Type': icon.type, 'Cache-Control': 'public, max-age=86400' }).send(icon.body);
    });
  }
}
