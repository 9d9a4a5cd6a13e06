ALTER TABLE "tenants" ADD COLUMN "pension_fund_type" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "pension_fund_rate" integer;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "withholding_tax" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "stamp_duty_to_customer" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user_tenants" ADD COLUMN "public_administration" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user_tenants" ADD COLUMN "cig" text;--> statement-breakpoint
ALTER TABLE "user_tenants" ADD COLUMN "withholding_agent" boolean;