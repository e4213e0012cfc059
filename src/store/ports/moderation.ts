import type { Limits } from '../../domain/limits.js';
import type { LinkRecord } from './links.js';

export interface Report {
  id: string;
  linkCode: string;
  personId: string;
  reason: string;
  createdAt: string;
  /** Whether the reporter is established now, so that the report counts towards flagging the link. */
  counts: boolean;
}

/** A request to review a flagged link: like a report, with an optional reason. */
export type ReviewRequest = Omit<Report, 'reason' | 'counts'> & { reason: string | null };

/**
 * Who counts when reports flag a link. Established: added by the operator, or signed up at least
 * `establishedAfterHours` ago, agreed to the terms and a member of a team. Decided when reports are counted, so a
 * reporter who becomes established later counts from then on.
 */
export type ReportRule = Pick<Limits, 'reportsToFlag' | 'establishedAfterHours'>;

export interface ModerationStore {
  /**
   * One standing report per person and link, kept whoever reports; flags an active link once `reportsToFlag`
   * established people have reports standing against it.
   */
  report(linkId: string, personId: string, reason: string, rule: ReportRule, now: Date): Promise<LinkRecord>;
  /** 409 `conflict` unless the link is flagged. */
  askForReview(linkId: string, personId: string, reason: string | null, now: Date): Promise<LinkRecord>;
  /** Open reports, oldest first: all of them, or of the link with id `linkId` only. */
  openReports(rule: ReportRule, now: Date, linkId?: string): Promise<Report[]>;
  /** Open review requests, oldest first: all of them, or of the link with id `linkId` only. */
  openReviews(linkId?: string): Promise<ReviewRequest[]>;
}
