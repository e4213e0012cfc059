/**
 * PostgreSQL's migration 15 (the second of the shared list, sql/migrations.ts): link_search, listLinks with q as one
 * PL/pgSQL function (search.ts calls it). Shipped text: never edited, a change is a new migration.
 *
 * Why a function: the single statement it replaces was planned anew for every search, and planning it (the inlined
 * SQL functions parsed again, the grams worked out while planning) cost more than running it, 0.6–1.1 ms against
 * 0.2–1.3 ms over 100,000 links. PL/pgSQL keeps its statements' plans per connection, and here each is made once
 * (force_generic_plan): the older buckets' plan is the same for every q anyway (the grams reach the index only per
 * bucket, at run time), and a read by team and seq has one good plan for every team, down (team_id, seq). Only a
 * probe in one state is planned for each search, as a one-off statement is: a state the statistics never saw (a few
 * flagged links among thousands of active ones) must still be read through (team_id, state, seq), not found by
 * walking every link by seq. jit off: the buckets' plan costs more than jit_above_cost (the planner guesses 1,000
 * buckets), and compiling it took 80–220 ms.
 *
 * The steps, the results and the bounds are those of the statement before it (search.ts describes them): the newest
 * `probe` links below the cursor tested for q, then, when they fall short of `wanted` and older links remain, the
 * gram index bucket by bucket from the probe's down to the team's oldest. Within one call every statement sees the
 * same snapshot (STABLE), as the one statement did.
 */
export const LINK_SEARCH_FUNCTION = `
  CREATE OR REPLACE FUNCTION link_search(team text, below bigint, wanted integer, in_state text, q text, probe integer)
  RETURNS SETOF links LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan
  SET jit = off
  AS $$
  DECLARE
    pattern text := link_search_pattern(q);
    grams text[] := link_search_query_grams(q);
    hits bigint;
    probed bigint;
    probe_oldest bigint;
    team_oldest bigint;
  BEGIN
    -- The newest links below the cursor holding q, up to wanted; a common q ends here.
    IF in_state IS NULL THEN
      RETURN QUERY SELECT p.* FROM (
        SELECT * FROM links l WHERE l.team_id = team AND l.seq < below ORDER BY l.seq DESC LIMIT probe
      ) AS p WHERE link_search_text(p.code, p.name, p.destination, p.note) LIKE pattern LIMIT wanted;
    ELSE
      -- Until the buckets: set_config(..., true) lasts until the function returns (its SET clause restores the mode).
      PERFORM set_config('plan_cache_mode', 'force_custom_plan', true);
      RETURN QUERY SELECT p.* FROM (
        SELECT * FROM links l WHERE l.team_id = team AND l.state = in_state AND l.seq < below ORDER BY l.seq DESC LIMIT probe
      ) AS p WHERE link_search_text(p.code, p.name, p.destination, p.note) LIKE pattern LIMIT wanted;
    END IF;
    GET DIAGNOSTICS hits = ROW_COUNT;
    IF hits >= wanted THEN RETURN; END IF;
    IF in_state IS NULL THEN
      SELECT count(*), min(p.seq) INTO probed, probe_oldest FROM (
        SELECT l.seq FROM links l WHERE l.team_id = team AND l.seq < below ORDER BY l.seq DESC LIMIT probe
      ) AS p;
    ELSE
      SELECT count(*), min(p.seq) INTO probed, probe_oldest FROM (
        SELECT l.seq FROM links l WHERE l.team_id = team AND l.state = in_state AND l.seq < below ORDER BY l.seq DESC LIMIT probe
      ) AS p;
    END IF;
    -- The probe held every link below the cursor: none older is left.
    IF probed < probe THEN RETURN; END IF;
    SELECT min(l.seq) INTO team_oldest FROM links l WHERE l.team_id = team;
    -- The older buckets, newest first. OFFSET 0 keeps a bucket's candidates a query of their own, sorted before the
    -- tests above it run, so the plan stays on the gram index; the grams condition is written exactly as
    -- links_search_grams is defined. Its plan is made once per connection again, after a probe in one state.
    PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
    RETURN QUERY SELECT l.* FROM generate_series(link_search_bucket(probe_oldest), link_search_bucket(team_oldest), -1) AS b(bucket),
      LATERAL (
        SELECT * FROM links c
        WHERE link_search_grams(c.team_id, c.seq, link_search_text(c.code, c.name, c.destination, c.note))
          @> link_search_bucket_grams(team, b.bucket, grams)
        ORDER BY c.seq DESC OFFSET 0
      ) AS l
      WHERE l.seq < probe_oldest AND l.team_id = team AND (in_state IS NULL OR l.state = in_state)
        AND link_search_text(l.code, l.name, l.destination, l.note) LIKE pattern
      LIMIT wanted - hits;
  END
  $$;
`;
