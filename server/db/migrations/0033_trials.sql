ALTER TABLE "plans" ADD COLUMN "trial_days" smallint;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "trial_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "trial_state" text;--> statement-breakpoint
CREATE INDEX "subscriptions_trial_idx" ON "subscriptions" USING btree ("tenant_id","trial_state","trial_ends_at") WHERE "subscriptions"."trial_ends_at" is not null;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_trial_days_check" CHECK ("plans"."trial_days" is null or "plans"."trial_days" between 0 and 365);--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_trial_check" CHECK (("subscriptions"."trial_ends_at" is null and "subscriptions"."trial_state" is null) or ("subscriptions"."trial_ends_at" is not null and "subscriptions"."trial_state" in ('running', 'converted', 'expired')));