ALTER TABLE "user_tenants" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "user_tenants_search_trgm_idx" ON "user_tenants" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- Hand-added: keep user_tenants.search_text (name, e-mail, PEC, phone, SDI, Partita IVA, lower-cased) in step.
CREATE FUNCTION user_tenants_search_text(p_user_id integer, p_name text, p_pec text, p_phone text, p_sdi text, p_vat text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT lower(concat_ws(' ', p_name, (SELECT u.email FROM users u WHERE u.id = p_user_id), p_pec, p_phone, p_sdi, p_vat))
$$;
--> statement-breakpoint
CREATE FUNCTION user_tenants_search_text_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := user_tenants_search_text(NEW.user_id, NEW.name, NEW.pec, NEW.phone, NEW.sdi, NEW.vat_code);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_tenants_search_text BEFORE INSERT OR UPDATE OF user_id, name, pec, phone, sdi, vat_code ON user_tenants
FOR EACH ROW EXECUTE FUNCTION user_tenants_search_text_trigger();
--> statement-breakpoint
CREATE FUNCTION users_search_text_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_tenants ut SET search_text = user_tenants_search_text(ut.user_id, ut.name, ut.pec, ut.phone, ut.sdi, ut.vat_code)
  WHERE ut.user_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_user_tenants_search AFTER UPDATE OF email ON users
FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION users_search_text_refresh();
--> statement-breakpoint
UPDATE user_tenants SET search_text = user_tenants_search_text(user_id, name, pec, phone, sdi, vat_code);
