ALTER TABLE "user_tenants" ADD COLUMN "email" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "user_tenants_tenant_email_order_idx" ON "user_tenants" USING btree ("tenant_id",lower("email"),"user_id");--> statement-breakpoint
-- Hand-added: the membership keeps a copy of its user's e-mail, set with its search text (0005).
CREATE OR REPLACE FUNCTION user_tenants_search_text_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := user_tenants_search_text(NEW.user_id, NEW.name, NEW.pec, NEW.phone, NEW.sdi, NEW.vat_code);
  NEW.email := coalesce((SELECT u.email FROM users u WHERE u.id = NEW.user_id), '');
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION users_search_text_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_tenants ut SET search_text = user_tenants_search_text(ut.user_id, ut.name, ut.pec, ut.phone, ut.sdi, ut.vat_code),
                             email = NEW.email
  WHERE ut.user_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
UPDATE user_tenants ut SET email = u.email FROM users u WHERE u.id = ut.user_id;
