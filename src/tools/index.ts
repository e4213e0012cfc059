import type { Tool } from './define-tool.js';
import { askForReview } from './ask-for-review.js';
import { changeDestination } from './change-destination.js';
import { clickBreakdown } from './click-breakdown.js';
import { createLink } from './create-link.js';
import { createLinks } from './create-links.js';
import { deleteLink } from './delete-link.js';
import { linkByCode } from './link-by-code.js';
import { linkClicks } from './link-clicks.js';
import { myTeams } from './my-teams.js';
import { renameLink } from './rename-link.js';
import { reportLink } from './report-link.js';
import { setLinkOptions } from './set-link-options.js';
import { setNote } from './set-note.js';
import { teamLinks } from './team-links.js';
import { teamTags } from './team-tags.js';

/** The registry: every surface loops over this list. Its order is the order of the docs and tools/list. */
export const tools: readonly Tool[] = [
  myTeams,
  teamLinks,
  teamTags,
  linkByCode,
  linkClicks,
  clickBreakdown,
  createLink,
  createLinks,
  changeDestination,
  setNote,
  setLinkOptions,
  renameLink,
  deleteLink,
  askForReview,
  reportLink,
] as unknown as readonly Tool[];

const byOperation = new Map(tools.filter((t) => t.operation).map((t) => [t.operation as string, t]));
const byName = new Map(tools.map((t) => [t.name, t]));

/** The tool answering `POST /v1/<operation>`. */
export function toolForOperation(operation: string): Tool | undefined {
  return byOperation.get(operation);
}

export function toolNamed(name: string): Tool | undefined {
  return byName.get(name);
}
