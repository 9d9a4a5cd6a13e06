ALTER TABLE "subscriptions" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "subscriptions_search_trgm_idx" ON "subscriptions" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- Hand-added: keep subscriptions.search_text (customer name, e-mail, plan name, lower-cased) in step.
CREATE FUNCTION subscription_search_text(p_user_id integer, p_tenant_id integer, p_plan_id integer) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT lower(concat_ws(' ',
    (SELECT ut.name FROM user_tenants ut WHERE ut.user_id = p_user_id AND ut.tenant_id = p_tenant_id),
    (SELECT u.email FROM users u WHERE u.id = p_user_id),
    (SELECT p.name FROM plans p WHERE p.id = p_plan_id AND p.tenant_id = p_tenant_id)))
$$;
--> statement-breakpoint
CREATE FUNCTION subscriptions_search_text_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := subscription_search_text(NEW.user_id, NEW.tenant_id, NEW.plan_id);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER subscriptions_search_text BEFORE INSERT OR UPDATE OF user_id, plan_id, tenant_id ON subscriptions
FOR EACH ROW EXECUTE FUNCTION subscriptions_search_text_trigger();
--> statement-breakpoint
CREATE FUNCTION subscriptions_search_text_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'user_tenants' THEN
    UPDATE subscriptions s SET search_text = subscription_search_text(s.user_id, s.tenant_id, s.plan_id)
    WHERE s.user_id = NEW.user_id AND s.tenant_id = NEW.tenant_id;
  ELSIF TG_TABLE_NAME = 'users' THEN
    UPDATE subscriptions s SET search_text = subscription_search_text(s.user_id, s.tenant_id, s.plan_id)
    WHERE s.user_id = NEW.id;
  ELSIF TG_TABLE_NAME = 'plans' THEN
    UPDATE subscriptions s SET search_text = subscription_search_text(s.user_id, s.tenant_id, s.plan_id)
    WHERE s.plan_id = NEW.id AND s.tenant_id = NEW.tenant_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_tenants_subscription_search AFTER UPDATE OF name ON user_tenants
FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION subscriptions_search_text_refresh();
--> statement-breakpoint
CREATE TRIGGER users_subscription_search AFTER UPDATE OF email ON users
FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION subscriptions_search_text_refresh();
--> statement-breakpoint
CREATE TRIGGER plans_subscription_search AFTER UPDATE OF name ON plans
FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION subscriptions_search_text_refresh();
--> statement-breakpoint
UPDATE subscriptions SET search_text = subscription_search_text(user_id, tenant_id, plan_id);
