-- Trigram matching for "contains" filters (GIN indexes with gin_trgm_ops).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
