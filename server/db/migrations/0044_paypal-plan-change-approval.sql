ALTER TABLE "plan_changes" ADD COLUMN "paypal_subscription_id" text;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD COLUMN "paypal_plan_id" text;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD COLUMN "paypal_approve_url" text;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD COLUMN "paypal_amount_cents" bigint;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD COLUMN "paypal_approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD COLUMN "paypal_mailed_at" timestamp with time zone;