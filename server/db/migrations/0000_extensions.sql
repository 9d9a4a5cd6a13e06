-- Trigram search (ILIKE '%term%') for the name indexes of the following migrations.
-- pg_trgm is a trusted extension (PostgreSQL 13+), so a database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
