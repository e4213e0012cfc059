import { readFileSync } from 'node:fs';
import type { Express } from 'express';
import { dataPath } from '../../paths.js';
import { ROBOTS_TXT } from '../../views/robots.js';

/**
 * The files asked for by name at the root: the icon browsers show in tabs and bookmarks (SVG for those that take it,
 * ICO for those that ask by the old name), and what crawlers may index.
 */
const FILES = {
  '/favicon.svg': { type: 'image/svg+xml', body: readFileSync(dataPath('favicon.svg')) },
  '/favicon.ico': { type: 'image/x-icon', body: readFileSync(dataPath('favicon.ico')) },
  '/robots.txt': { type: 'text/plain; charset=utf-8', body: ROBOTS_TXT },
};

export function faviconRoutes(app: Express): void {
  for (const [path, file] of Object.entries(FILES)) {
    app.get(path, (_req, res) => {
      // Browsers ask for the icon on every page load, crawlers for robots.txt on every visit; a day of caching
      // spares them and us.
      res.set({ 'Content-Type': file.type, 'Cache-Control': 'public, max-age=86400' }).send(file.body);
    });
  }
}
