import { newId } from '../../domain/ids.js';
import { HOUR_MS } from '../../domain/limits.js';
import type { Random } from '../../domain/random.js';
import { apiError } from '../../errors.js';
import type { LinkRecord, ReportRule } from '../ports.js';
import { lockLink, q, readLink, type LinkQueries } from './link-queries.js';
import type { Steps } from './steps.js';
import { tellWebhooks } from './webhook-events.js';

type Op<T> = Steps<LinkQueries, T>;

/** The latest sign-up time that is old enough for a person to be established (ports.ts, ReportRule). */
export function establishedSignUpBy(rule: ReportRule, now: Date): string {
  return new Date(now.getTime() - rule.establishedAfterHours * HOUR_MS).toISOString();
}

/** The ModerationStore's changes as operations, for any adapter to run in one transaction each (see steps.ts). */
export function moderationOperations(random: Random) {

  return {
    /**
     * One standing report per person and link, kept whoever reports; flags an active link once `reportsToFlag`
     * established people have reports standing against it.
     */
    *report(linkId: string, personId: string, reason: string, rule: ReportRule, now: Date): Op<LinkRecord> {
      // Locked, so that reports arriving together each count the others' and the last one flags.
      yield* lockLink(linkId);
      yield* q.saveReport({ id: newId('report', random), linkId, personId, reason, createdAt: now.toISOString() });
      const counted = yield* q.establishedReporters(linkId, establishedSignUpBy(rule, now));
      if (counted >= rule.reportsToFlag && (yield* q.flagIfActive(linkId))) {
        const flagged = yield* readLink(linkId);
        yield* q.changed(flagged.code, flagged.name);
        yield* tellWebhooks('link.state_changed', flagged, now, { previousState: 'active' });
      }
      return yield* readLink(linkId);
    },

    /** 409 `conflict` unless the link is flagged. */
    *askForReview(linkId: string, personId: string, reason: string | null, now: Date): Op<LinkRecord> {
      const current = yield* lockLink(linkId);
      if (current.state !== 'flagged') {
        throw apiError.conflict('Only a flagged link can be reviewed; this one is not flagged.', 'code');
      }
      yield* q.saveReview({ id: newId('review', random), linkId, personId, reason, createdAt: now.toISOString() });
      return current;
    },
  };
}
