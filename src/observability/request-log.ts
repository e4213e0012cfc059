import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from './logger.js';
import type { ServiceMetrics } from './metrics.js';
import { followRequest } from './request-facts.js';

/** The surfaces whose every request is a log line (redirects are summed up instead: redirect-log.ts). */
export type Surface = 'api' | 'mcp' | 'web' | 'oauth';

/**
 * Follows one API, MCP, web or OAuth request to its end (the answer sent, or the client gone) and then counts it
 * and writes its line: request id, surface, method, route (the pattern, never the path: paths and queries can carry
 * codes and tokens), operation, status, duration, and the person and OAuth client the gate admitted. A refusal is
 * told by its own status and error code, also an MCP tool call's `isError` result, which HTTP carries as a 200.
 */
export function requestLog(logger: Logger, metrics: ServiceMetrics) {
  const logging = logger.isLevelEnabled('info');

  return function follow(req: IncomingMessage, res: ServerResponse, surface: Surface, started: number, requestId: string): void {
    const facts = followRequest(res);
    res.once('close', () => {
      const seconds = (performance.now() - started) / 1000;
      const route = routeOf(req, surface, facts.operation);
      const operation = facts.operation ?? route ?? 'none';
      const finished = res.writableFinished;
      const { failure } = facts;
      const status = failure?.status ?? res.statusCode;
      metrics.requests.of(surface, operation, finished ? String(status) : 'aborted').value += 1;
      if (finished && failure) metrics.errors.of(surface, operation, failure.code).value += 1;
      metrics.durations.of(surface, operation).observe(seconds);
      if (!logging) return;
      const line = {
        requestId,
        surface,
        method: req.method,
        route,
        operation,
        status,
        ...(failure ? { code: failure.code } : {}),
        ...(finished ? {} : { aborted: true }),
        durationMs: Math.round(seconds * 100_000) / 100,
        person: facts.person,
        client: facts.client,
      };
      if (status >= 500) logger.error(line, 'request');
      else logger.info(line, 'request');
    });
  };
}

/**
 * The route's pattern: the API's operation, /mcp, the page's Express route (`/teams/:id`), or the operation noted by
 * what answered outside Express; null when none matched.
 */
function routeOf(req: IncomingMessage, surface: Surface, operation: string | null): string | null {
  if (surface === 'api') return operation === null ? null : `/v1/${operation}`;
  if (surface === 'mcp') return '/mcp';
  const { route, baseUrl = '' } = req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };
  // Answered outside Express (the health check): the path it noted as its operation.
  return typeof route?.path === 'string' ? `${baseUrl}${route.path}` : operation;
}
