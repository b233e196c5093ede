DROP INDEX "device_classes_type_idx";--> statement-breakpoint
DROP INDEX "device_classes_license_enabled_idx";--> statement-breakpoint
DROP INDEX "device_deliveries_school_id_agent_id_idx";--> statement-breakpoint
DROP INDEX "device_deliveries_school_id_installation_time_idx";--> statement-breakpoint
DROP INDEX "device_warranties_school_id_delivery_id_idx";--> statement-breakpoint
DROP INDEX "device_warranties_school_id_end_date_idx";--> statement-breakpoint
DROP INDEX "devices_school_id_device_class_code_idx";--> statement-breakpoint
DROP INDEX "devices_school_id_state_idx";--> statement-breakpoint
DROP INDEX "devices_school_id_license_key_idx";--> statement-breakpoint
DROP INDEX "devices_school_id_created_at_idx";--> statement-breakpoint
DROP INDEX "licenses_school_id_use_for_idx";--> statement-breakpoint
DROP INDEX "licenses_school_id_type_idx";--> statement-breakpoint
DROP INDEX "licenses_school_id_state_idx";--> statement-breakpoint
DROP INDEX "licenses_school_id_enabled_idx";--> statement-breakpoint
DROP INDEX "parents_school_id_name_idx";--> statement-breakpoint
DROP INDEX "parents_school_id_student_id_idx";--> statement-breakpoint
DROP INDEX "parents_school_id_relation_idx";--> statement-breakpoint
DROP INDEX "parents_school_id_enabled_idx";--> statement-breakpoint
DROP INDEX "pick_up_persons_school_id_student_id_idx";--> statement-breakpoint
DROP INDEX "pick_up_persons_school_id_name_idx";--> statement-breakpoint
DROP INDEX "pick_up_persons_school_id_relation_idx";--> statement-breakpoint
DROP INDEX "pick_up_persons_school_id_phone_num_idx";--> statement-breakpoint
DROP INDEX "pick_up_persons_school_id_valid_until_idx";--> statement-breakpoint
DROP INDEX "school_classes_school_id_grade_idx";--> statement-breakpoint
DROP INDEX "schools_province_idx";--> statement-breakpoint
DROP INDEX "schools_city_idx";--> statement-breakpoint
DROP INDEX "schools_area_idx";--> statement-breakpoint
DROP INDEX "schools_agent_id_idx";--> statement-breakpoint
DROP INDEX "schools_school_type_idx";--> statement-breakpoint
DROP INDEX "schools_license_key_required_idx";--> statement-breakpoint
DROP INDEX "schools_state_idx";--> statement-breakpoint
DROP INDEX "schools_examine_state_idx";--> statement-breakpoint
DROP INDEX "schools_seller_id_idx";--> statement-breakpoint
DROP INDEX "schools_sales_team_id_idx";--> statement-breakpoint
DROP INDEX "schools_is_direct_idx";--> statement-breakpoint
DROP INDEX "schools_created_at_idx";--> statement-breakpoint
DROP INDEX "students_school_id_class_id_idx";--> statement-breakpoint
DROP INDEX "students_school_id_name_idx";--> statement-breakpoint
DROP INDEX "students_school_id_student_no_idx";--> statement-breakpoint
DROP INDEX "students_school_id_card_no_idx";--> statement-breakpoint
DROP INDEX "students_school_id_gender_idx";--> statement-breakpoint
DROP INDEX "students_school_id_state_idx";--> statement-breakpoint
DROP INDEX "teachers_school_id_name_idx";--> statement-breakpoint
DROP INDEX "teachers_school_id_phone_num_idx";--> statement-breakpoint
DROP INDEX "teachers_school_id_card_no_idx";--> statement-breakpoint
DROP INDEX "teachers_school_id_class_id_idx";--> statement-breakpoint
DROP INDEX "teachers_school_id_enabled_idx";--> statement-breakpoint
CREATE INDEX "device_classes_type_idx" ON "device_classes" USING btree ("type","id");--> statement-breakpoint
CREATE INDEX "device_classes_license_enabled_idx" ON "device_classes" USING btree ("license_enabled","id");--> statement-breakpoint
CREATE INDEX "device_deliveries_school_id_agent_id_idx" ON "device_deliveries" USING btree ("school_id","agent_id","id");--> statement-breakpoint
CREATE INDEX "device_deliveries_school_id_installation_time_idx" ON "device_deliveries" USING btree ("school_id","installation_time","id");--> statement-breakpoint
CREATE INDEX "device_warranties_school_id_delivery_id_idx" ON "device_warranties" USING btree ("school_id","delivery_id","id");--> statement-breakpoint
CREATE INDEX "device_warranties_school_id_end_date_idx" ON "device_warranties" USING btree ("school_id","end_date","id");--> statement-breakpoint
CREATE INDEX "devices_school_id_device_class_code_idx" ON "devices" USING btree ("school_id","device_class_code","id");--> statement-breakpoint
CREATE INDEX "devices_school_id_state_idx" ON "devices" USING btree ("school_id","state","id");--> statement-breakpoint
CREATE INDEX "devices_school_id_license_key_idx" ON "devices" USING btree ("school_id","license_key","id");--> statement-breakpoint
CREATE INDEX "devices_school_id_created_at_idx" ON "devices" USING btree ("school_id","created_at","id");--> statement-breakpoint
CREATE INDEX "licenses_school_id_use_for_idx" ON "licenses" USING btree ("school_id","use_for","id");--> statement-breakpoint
CREATE INDEX "licenses_school_id_type_idx" ON "licenses" USING btree ("school_id","type","id");--> statement-breakpoint
CREATE INDEX "licenses_school_id_state_idx" ON "licenses" USING btree ("school_id","state","id");--> statement-breakpoint
CREATE INDEX "licenses_school_id_enabled_idx" ON "licenses" USING btree ("school_id","enabled","id");--> statement-breakpoint
CREATE INDEX "parents_school_id_name_idx" ON "parents" USING btree ("school_id","name" text_pattern_ops,"id");--> statement-breakpoint
CREATE INDEX "parents_school_id_student_id_idx" ON "parents" USING btree ("school_id","student_id","id");--> statement-breakpoint
CREATE INDEX "parents_school_id_relation_idx" ON "parents" USING btree ("school_id","relation","id");--> statement-breakpoint
CREATE INDEX "parents_school_id_enabled_idx" ON "parents" USING btree ("school_id","enabled","id");--> statement-breakpoint
CREATE INDEX "pick_up_persons_school_id_student_id_idx" ON "pick_up_persons" USING btree ("school_id","student_id","id");--> statement-breakpoint
CREATE INDEX "pick_up_persons_school_id_name_idx" ON "pick_up_persons" USING btree ("school_id","name" text_pattern_ops,"id");--> statement-breakpoint
CREATE INDEX "pick_up_persons_school_id_relation_idx" ON "pick_up_persons" USING btree ("school_id","relation","id");--> statement-breakpoint
CREATE INDEX "pick_up_persons_school_id_phone_num_idx" ON "pick_up_persons" USING btree ("school_id","phone_num" text_pattern_ops,"id");--> statement-breakpoint
CREATE INDEX "pick_up_persons_school_id_valid_until_idx" ON "pick_up_persons" USING btree ("school_id","valid_until","id");--> statement-breakpoint
CREATE INDEX "school_classes_school_id_grade_idx" ON "school_classes" USING btree ("school_id","grade","id");--> statement-breakpoint
CREATE INDEX "schools_province_idx" ON "schools" USING btree ("province","id");--> statement-breakpoint
CREATE INDEX "schools_city_idx" ON "schools" USING btree ("city","id");--> statement-breakpoint
CREATE INDEX "schools_area_idx" ON "schools" USING btree ("area","id");--> statement-breakpoint
CREATE INDEX "schools_agent_id_idx" ON "schools" USING btree ("agent_id","id");--> statement-breakpoint
CREATE INDEX "schools_school_type_idx" ON "schools" USING btree ("school_type","id");--> statement-breakpoint
CREATE INDEX "schools_license_key_required_idx" ON "schools" USING btree ("license_key_required","id");--> statement-breakpoint
CREATE INDEX "schools_state_idx" ON "schools" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "schools_examine_state_idx" ON "schools" USING btree ("examine_state","id");--> statement-breakpoint
CREATE INDEX "schools_seller_id_idx" ON "schools" USING btree ("seller_id","id");--> statement-breakpoint
CREATE INDEX "schools_sales_team_id_idx" ON "schools" USING btree ("sales_team_id","id");--> statement-breakpoint
CREATE INDEX "schools_is_direct_idx" ON "schools" USING btree ("is_direct","id");--> statement-breakpoint
CREATE INDEX "schools_created_at_idx" ON "schools" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "students_school_id_class_id_idx" ON "students" USING btree ("school_id","class_id","id");--> statement-breakpoint
CREATE INDEX "students_school_id_name_idx" ON "students" USING btree ("school_id","name" text_pattern_ops,"id");--> statement-breakpoint
CREATE INDEX "students_school_id_student_no_idx" ON "students" USING btree ("school_id","student_no","id");--> statement-breakpoint
CREATE INDEX "students_school_id_card_no_idx" ON "students" USING btree ("school_id","card_no","id");--> statement-breakpoint
CREATE INDEX "students_school_id_gender_idx" ON "students" USING btree ("school_id","gender","id");--> statement-breakpoint
CREATE INDEX "students_school_id_state_idx" ON "students" USING btree ("school_id","state","id");--> statement-breakpoint
CREATE INDEX "teachers_school_id_name_idx" ON "teachers" USING btree ("school_id","name" text_pattern_ops,"id");--> statement-breakpoint
CREATE INDEX "teachers_school_id_phone_num_idx" ON "teachers" USING btree ("school_id","phone_num" text_pattern_ops,"id");--> statement-breakpoint
CREATE INDEX "teachers_school_id_card_no_idx" ON "teachers" USING btree ("school_id","card_no","id");--> statement-breakpoint
CREATE INDEX "teachers_school_id_class_id_idx" ON "teachers" USING btree ("school_id","class_id","id");--> statement-breakpoint
CREATE INDEX "teachers_school_id_enabled_idx" ON "teachers" USING btree ("school_id","enabled","id");