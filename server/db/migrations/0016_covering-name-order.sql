-- Custom (issue 8): the memberships' name order index carries the columns its lists read, so the
-- ordered walks are index-only: the ids of a deep customer page (lower(name) is only usable from
-- the index when `name` is in it) and the customer select's search (label columns and the search
-- text filtered in the index, in name order). drizzle's index builder has no INCLUDE: the schema
-- (users.ts) declares the same key, this migration adds the payload.
DROP INDEX IF EXISTS "user_tenants_tenant_name_order_idx";--> statement-breakpoint
CREATE INDEX "user_tenants_tenant_name_order_idx" ON "user_tenants" USING btree ("tenant_id",lower("name"),"user_id") INCLUDE ("name","email","search_text");
