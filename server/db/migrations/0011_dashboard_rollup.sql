CREATE TABLE "dashboard_live_plans" (
	"tenant_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"subscriptions" integer DEFAULT 0 NOT NULL,
	"cost_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_live_plans_tenant_id_plan_id_pk" PRIMARY KEY("tenant_id","plan_id")
);
--> statement-breakpoint
CREATE TABLE "dashboard_months" (
	"tenant_id" integer NOT NULL,
	"month" text NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	"entered" integer DEFAULT 0 NOT NULL,
	"exited" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_months_tenant_id_month_pk" PRIMARY KEY("tenant_id","month")
);
--> statement-breakpoint
DROP INDEX "subscription_events_tenant_live_moves_idx";--> statement-breakpoint
DROP INDEX "subscriptions_tenant_live_plan_idx";--> statement-breakpoint
ALTER TABLE "user_tenants" ADD COLUMN "first_live_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "net_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "dashboard_live_plans" ADD CONSTRAINT "dashboard_live_plans_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_months" ADD CONSTRAINT "dashboard_months_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_tenants_tenant_first_live_idx" ON "user_tenants" USING btree ("tenant_id","first_live_at");--> statement-breakpoint
-- Hand-added: the dashboard's running totals, kept by triggers in the writing transaction
-- (server/db/schema/dashboard.ts). Every change to a total first takes a transaction-scoped
-- advisory lock on the tenant, so two billing transactions of one tenant never lock the totals'
-- rows in opposite orders (no deadlock between a payment and a status change).
CREATE FUNCTION rinnova_rome_month(p_at timestamptz) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT to_char(timezone('Europe/Rome', p_at), 'YYYY-MM')
$$;
--> statement-breakpoint
CREATE FUNCTION dashboard_month_add(p_tenant integer, p_month text, p_revenue bigint, p_entered integer, p_exited integer)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1919251317, p_tenant);
  INSERT INTO dashboard_months (tenant_id, month, revenue_cents, entered, exited)
  VALUES (p_tenant, p_month, p_revenue, p_entered, p_exited)
  ON CONFLICT (tenant_id, month) DO UPDATE SET
    revenue_cents = dashboard_months.revenue_cents + excluded.revenue_cents,
    entered = dashboard_months.entered + excluded.entered,
    exited = dashboard_months.exited + excluded.exited;
END $$;
--> statement-breakpoint
CREATE FUNCTION dashboard_live_plan_add(p_tenant integer, p_plan integer, p_subscriptions integer, p_cost bigint)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1919251317, p_tenant);
  INSERT INTO dashboard_live_plans (tenant_id, plan_id, subscriptions, cost_cents)
  VALUES (p_tenant, p_plan, p_subscriptions, p_cost)
  ON CONFLICT (tenant_id, plan_id) DO UPDATE SET
    subscriptions = dashboard_live_plans.subscriptions + excluded.subscriptions,
    cost_cents = dashboard_live_plans.cost_cents + excluded.cost_cents;
END $$;
--> statement-breakpoint
-- payments.net_cents: the amount before VAT, half-up, from the subscription's VAT when written.
CREATE FUNCTION payments_net_cents() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v integer;
BEGIN
  SELECT s.vat_hundredths INTO v FROM subscriptions s
  WHERE s.id = NEW.subscription_id AND s.tenant_id = NEW.tenant_id;
  v := coalesce(v, 0);
  NEW.net_cents := (NEW.amount_due_cents * 20000 + 10000 + v) / (2 * (10000 + v));
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE FUNCTION payments_dashboard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.paid_at IS NOT NULL THEN
    PERFORM dashboard_month_add(OLD.tenant_id, rinnova_rome_month(OLD.paid_at), -OLD.net_cents, 0, 0);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.paid_at IS NOT NULL THEN
    PERFORM dashboard_month_add(NEW.tenant_id, rinnova_rome_month(NEW.paid_at), NEW.net_cents, 0, 0);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION subscriptions_dashboard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status IN (1, 3) THEN
    PERFORM dashboard_live_plan_add(OLD.tenant_id, OLD.plan_id, -1, -OLD.cost_before_vat_cents);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status IN (1, 3) THEN
    PERFORM dashboard_live_plan_add(NEW.tenant_id, NEW.plan_id, 1, NEW.cost_before_vat_cents);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A move into or out of the live statuses counts in its Rome month; the first move into a live
-- status of any of a customer's subscriptions is the customer's first_live_at.
CREATE FUNCTION subscription_events_dashboard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_live boolean := coalesce(NEW.from_status, 0) IN (1, 3);
  is_live boolean := NEW.to_status IN (1, 3);
BEGIN
  IF was_live <> is_live THEN
    PERFORM dashboard_month_add(NEW.tenant_id, rinnova_rome_month(NEW.at), 0,
      CASE WHEN is_live THEN 1 ELSE 0 END, CASE WHEN is_live THEN 0 ELSE 1 END);
    IF is_live THEN
      UPDATE user_tenants ut SET first_live_at = NEW.at
      FROM subscriptions s
      WHERE s.id = NEW.subscription_id AND s.tenant_id = NEW.tenant_id
        AND ut.user_id = s.user_id AND ut.tenant_id = NEW.tenant_id
        AND (ut.first_live_at IS NULL OR ut.first_live_at > NEW.at);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The history is append-only: an edit or a removal would make the totals lie.
CREATE FUNCTION subscription_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'subscription_events is append-only';
END $$;
--> statement-breakpoint
UPDATE payments p SET net_cents = (p.amount_due_cents * 20000 + 10000 + s.vat_hundredths) / (2 * (10000 + s.vat_hundredths))
FROM subscriptions s WHERE s.id = p.subscription_id AND s.tenant_id = p.tenant_id;
--> statement-breakpoint
INSERT INTO dashboard_months (tenant_id, month, revenue_cents, entered, exited)
SELECT tenant_id, month, sum(revenue), sum(entered), sum(exited) FROM (
  SELECT tenant_id, rinnova_rome_month(paid_at) AS month, net_cents AS revenue, 0 AS entered, 0 AS exited
  FROM payments WHERE paid_at IS NOT NULL
  UNION ALL
  SELECT tenant_id, rinnova_rome_month(at), 0,
         CASE WHEN to_status IN (1, 3) THEN 1 ELSE 0 END, CASE WHEN to_status IN (1, 3) THEN 0 ELSE 1 END
  FROM subscription_events WHERE (to_status IN (1, 3)) <> (coalesce(from_status, 0) IN (1, 3))
) x GROUP BY tenant_id, month;
--> statement-breakpoint
INSERT INTO dashboard_live_plans (tenant_id, plan_id, subscriptions, cost_cents)
SELECT tenant_id, plan_id, count(*), sum(cost_before_vat_cents) FROM subscriptions
WHERE status IN (1, 3) GROUP BY tenant_id, plan_id;
--> statement-breakpoint
UPDATE user_tenants ut SET first_live_at = f.first_at
FROM (SELECT s.tenant_id, s.user_id, min(e.at) AS first_at
      FROM subscription_events e JOIN subscriptions s ON s.id = e.subscription_id AND s.tenant_id = e.tenant_id
      WHERE e.to_status IN (1, 3) AND coalesce(e.from_status, 0) NOT IN (1, 3)
      GROUP BY s.tenant_id, s.user_id) f
WHERE ut.tenant_id = f.tenant_id AND ut.user_id = f.user_id;
--> statement-breakpoint
CREATE TRIGGER payments_net_cents BEFORE INSERT OR UPDATE OF amount_due_cents, subscription_id ON payments
FOR EACH ROW EXECUTE FUNCTION payments_net_cents();
--> statement-breakpoint
CREATE TRIGGER payments_dashboard_insert_delete AFTER INSERT OR DELETE ON payments
FOR EACH ROW EXECUTE FUNCTION payments_dashboard();
--> statement-breakpoint
CREATE TRIGGER payments_dashboard_update AFTER UPDATE ON payments
FOR EACH ROW WHEN (OLD.paid_at IS DISTINCT FROM NEW.paid_at OR OLD.net_cents <> NEW.net_cents OR OLD.tenant_id <> NEW.tenant_id)
EXECUTE FUNCTION payments_dashboard();
--> statement-breakpoint
CREATE TRIGGER subscriptions_dashboard_insert_delete AFTER INSERT OR DELETE ON subscriptions
FOR EACH ROW EXECUTE FUNCTION subscriptions_dashboard();
--> statement-breakpoint
CREATE TRIGGER subscriptions_dashboard_update AFTER UPDATE ON subscriptions
FOR EACH ROW WHEN ((OLD.status IN (1, 3)) <> (NEW.status IN (1, 3)) OR OLD.plan_id <> NEW.plan_id
                   OR OLD.cost_before_vat_cents <> NEW.cost_before_vat_cents OR OLD.tenant_id <> NEW.tenant_id)
EXECUTE FUNCTION subscriptions_dashboard();
--> statement-breakpoint
CREATE TRIGGER subscription_events_dashboard AFTER INSERT ON subscription_events
FOR EACH ROW EXECUTE FUNCTION subscription_events_dashboard();
--> statement-breakpoint
CREATE TRIGGER subscription_events_append_only BEFORE UPDATE OR DELETE ON subscription_events
FOR EACH ROW EXECUTE FUNCTION subscription_events_append_only();
