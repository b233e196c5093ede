-- The `name` search rule (src/resources/engine/search-rules.ts): a value's lower-cased 1- and
-- 2-character pieces, for a GIN index a two-character Chinese part can use (trigrams need three).
-- COST: ~40 µs a row, so the planner checks every cheaper condition first and prefers the index.
CREATE OR REPLACE FUNCTION search_grams(value text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 1000
RETURN (
  SELECT coalesce(array_agg(DISTINCT substr(lower(value), i, n)), '{}')
  FROM generate_series(1, char_length(value)) AS i, generate_series(1, 2) AS n
  WHERE i + n - 1 <= char_length(value)
);--> statement-breakpoint
-- The pieces a typed value must find: its 2-character pieces, or the one character typed.
CREATE OR REPLACE FUNCTION search_query_grams(value text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (
  SELECT coalesce(array_agg(DISTINCT substr(lower(value), i, least(2, char_length(value)))), '{}')
  FROM generate_series(1, greatest(char_length(value) - 1, 1)) AS i
);--> statement-breakpoint
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
