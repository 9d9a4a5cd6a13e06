ALTER TABLE "tenants" ADD COLUMN "customer_pause" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "widget_requests" ADD COLUMN "coupon_code" text;