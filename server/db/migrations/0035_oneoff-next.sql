DROP INDEX "one_off_charges_payment_idx";--> statement-breakpoint
CREATE INDEX "one_off_charges_next_payment_idx" ON "one_off_charges" USING btree ("tenant_id","payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "one_off_charges_payment_idx" ON "one_off_charges" USING btree ("tenant_id","payment_id") WHERE "one_off_charges"."collect" = 'now';