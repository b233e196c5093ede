CREATE INDEX "parents_name_trgm_idx" ON "parents" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "parents_phone_num_trgm_idx" ON "parents" USING gin ("phone_num" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pick_up_persons_name_trgm_idx" ON "pick_up_persons" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pick_up_persons_phone_num_trgm_idx" ON "pick_up_persons" USING gin ("phone_num" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "students_name_trgm_idx" ON "students" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "students_student_no_idx" ON "students" USING btree ("student_no");--> statement-breakpoint
CREATE INDEX "teachers_name_trgm_idx" ON "teachers" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "teachers_phone_num_trgm_idx" ON "teachers" USING gin ("phone_num" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "teachers_card_no_idx" ON "teachers" USING btree ("card_no");