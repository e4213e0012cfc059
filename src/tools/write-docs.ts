import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';
import { toolsMarkdown } from './docs.js';

writeFileSync(join(packageRoot, 'docs', 'tools.md'), toolsMarkdown());
