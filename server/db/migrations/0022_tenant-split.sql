CREATE TABLE "public_ids" (
	"kind" text NOT NULL,
	"id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	CONSTRAINT "public_ids_kind_id_pk" PRIMARY KEY("kind","id")
);
--> statement-breakpoint
ALTER TABLE "public_ids" ADD CONSTRAINT "public_ids_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Plans made before: the widget finds their tenant here too.
INSERT INTO "public_ids" ("kind", "id", "tenant_id") SELECT 'plan', "id", "tenant_id" FROM "plans";
--> statement-breakpoint
-- The history stays append-only, but for the one tenant whose rows a split (npm run tenants --
-- split) is removing from this database after copying them into the tenant's own: that
-- transaction names it in rinnova.moving_tenant (set_config(..., true): for that transaction only).
CREATE OR REPLACE FUNCTION subscription_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('rinnova.moving_tenant', true) = OLD.tenant_id::text THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'subscription_events is append-only';
END $$;
