-- The `name` search rule (src/resources/engine/search-rules.ts): a value's lower-cased 1- and
-- 2-character pieces, for a GIN index a two-character Chinese part can use (trigrams need three).
-- plpgsql, not one SQL query: 5× faster per row (a loop, no sort; GIN drops repeated pieces itself).
-- COST: still tens of µs a row, so the planner checks every cheaper condition first.
CREATE OR REPLACE FUNCTION search_grams(value text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $$
DECLARE
  v text := lower(value);
  n int := char_length(v);
  pieces text[] := '{}';
BEGIN
  FOR i IN 1..n LOOP
    pieces := pieces || substr(v, i, 1);
    IF i < n THEN pieces := pieces || substr(v, i, 2); END IF;
  END LOOP;
  RETURN pieces;
END $$;--> statement-breakpoint
-- The pieces a typed value must find: its 2-character pieces, or the one character typed.
CREATE OR REPLACE FUNCTION search_query_grams(value text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  v text := lower(value);
  n int := char_length(v);
  pieces text[] := '{}';
BEGIN
  IF n = 1 THEN RETURN ARRAY[v]; END IF;
  FOR i IN 1..n - 1 LOOP
    pieces := pieces || substr(v, i, 2);
  END LOOP;
  RETURN pieces;
END $$;--> statement-breakpoint
-- Names sort in pinyin order where the server's ICU knows Chinese; PGlite's ICU has only the root
-- data (its "zh" sorts by code point), so there the copy is of "C" and says so plainly.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'zh-x-icu') THEN
    CREATE COLLATION IF NOT EXISTS campus_names FROM "zh-x-icu";
  ELSE
    CREATE COLLATION IF NOT EXISTS campus_names FROM "C";
  END IF;
END $$;
