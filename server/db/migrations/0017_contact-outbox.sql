ALTER TABLE "contact_messages" DROP COLUMN "emailed_at";--> statement-breakpoint
ALTER TABLE "contact_messages" DROP COLUMN "email_error";