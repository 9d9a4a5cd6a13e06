ALTER TABLE "paypal_coupon_revisions" DROP CONSTRAINT "paypal_coupon_revisions_status_check";--> statement-breakpoint
ALTER TABLE "paypal_coupon_revisions" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
UPDATE "paypal_coupon_revisions" SET "expires_at" = "created_at" + interval '30 days';--> statement-breakpoint
ALTER TABLE "paypal_coupon_revisions" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "paypal_coupon_revisions" ADD COLUMN "mailed_at" timestamp with time zone;--> statement-breakpoint
UPDATE "paypal_coupon_revisions" SET "mailed_at" = "created_at";--> statement-breakpoint
CREATE INDEX "paypal_coupon_revisions_pending_idx" ON "paypal_coupon_revisions" USING btree ("tenant_id","expires_at") WHERE "paypal_coupon_revisions"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "paypal_coupon_revisions" ADD CONSTRAINT "paypal_coupon_revisions_status_check" CHECK ("paypal_coupon_revisions"."status" in ('pending', 'redeemed', 'replaced', 'expired'));