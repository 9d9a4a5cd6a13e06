CREATE TABLE "tenant_databases" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"server" text NOT NULL,
	"database" text,
	"state" text DEFAULT 'ready' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"migrations" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"moved_at" timestamp with time zone,
	CONSTRAINT "tenant_databases_state_check" CHECK ("tenant_databases"."state" in ('ready', 'readOnly', 'unavailable'))
);
--> statement-breakpoint
ALTER TABLE "tenant_databases" ADD CONSTRAINT "tenant_databases_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tenant_databases_server_idx" ON "tenant_databases" USING btree ("server");