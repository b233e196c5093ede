DROP INDEX "sms_outbox_phone_created_at_idx";--> statement-breakpoint
CREATE INDEX "sms_outbox_created_at_id_idx" ON "sms_outbox" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "sms_outbox_phone_created_at_id_idx" ON "sms_outbox" USING btree ("phone" text_pattern_ops,"created_at","id");--> statement-breakpoint
CREATE INDEX "sms_outbox_phone_trgm_idx" ON "sms_outbox" USING gin ("phone" gin_trgm_ops);