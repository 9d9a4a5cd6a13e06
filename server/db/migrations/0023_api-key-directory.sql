CREATE TABLE "api_key_directory" (
	"secret_hash" text PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_key_directory" ADD CONSTRAINT "api_key_directory_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_key_directory_tenant_idx" ON "api_key_directory" USING btree ("tenant_id");--> statement-breakpoint
-- Hand-added: the keys of tenants still in the control database are listed in the directory
-- (in a tenant's own database the same statement lists its keys there, where nothing reads them).
INSERT INTO "api_key_directory" ("secret_hash", "tenant_id")
SELECT "secret_hash", "tenant_id" FROM "api_keys"
ON CONFLICT ("secret_hash") DO NOTHING;