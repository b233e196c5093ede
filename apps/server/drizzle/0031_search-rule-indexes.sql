DROP INDEX "agent_fund_accounts_name_trgm_idx";--> statement-breakpoint
DROP INDEX "app_versions_version_number_idx";--> statement-breakpoint
DROP INDEX "developers_name_trgm_idx";--> statement-breakpoint
DROP INDEX "device_classes_name_trgm_idx";--> statement-breakpoint
DROP INDEX "device_classes_manufacturer_name_trgm_idx";--> statement-breakpoint
DROP INDEX "device_deliveries_consignee_name_trgm_idx";--> statement-breakpoint
DROP INDEX "education_directories_name_trgm_idx";--> statement-breakpoint
DROP INDEX "fever_alerts_person_name_trgm_idx";--> statement-breakpoint
DROP INDEX "licenses_student_name_trgm_idx";--> statement-breakpoint
DROP INDEX "nvrs_name_trgm_idx";--> statement-breakpoint
DROP INDEX "nvrs_school_id_ip_idx";--> statement-breakpoint
DROP INDEX "device_orders_consignee_name_trgm_idx";--> statement-breakpoint
DROP INDEX "parents_name_trgm_idx";--> statement-breakpoint
DROP INDEX "payment_provider_calls_reference_created_at_id_idx";--> statement-breakpoint
DROP INDEX "pick_up_persons_name_trgm_idx";--> statement-breakpoint
DROP INDEX "platform_logs_route_created_at_id_idx";--> statement-breakpoint
DROP INDEX "recognition_records_person_name_trgm_idx";--> statement-breakpoint
DROP INDEX "sales_areas_provinces_trgm_idx";--> statement-breakpoint
DROP INDEX "sales_areas_cities_trgm_idx";--> statement-breakpoint
DROP INDEX "school_charges_name_trgm_idx";--> statement-breakpoint
DROP INDEX "school_classes_class_name_trgm_idx";--> statement-breakpoint
DROP INDEX "school_holidays_name_trgm_idx";--> statement-breakpoint
DROP INDEX "students_name_trgm_idx";--> statement-breakpoint
DROP INDEX "teachers_name_trgm_idx";--> statement-breakpoint
DROP INDEX "terminal_app_upgrades_name_trgm_idx";--> statement-breakpoint
DROP INDEX "terminal_app_versions_version_number_idx";--> statement-breakpoint
DROP INDEX "terminals_school_id_serial_number_idx";--> statement-breakpoint
DROP INDEX "parents_school_id_name_idx";--> statement-breakpoint
DROP INDEX "pick_up_persons_school_id_name_idx";--> statement-breakpoint
DROP INDEX "students_school_id_name_idx";--> statement-breakpoint
DROP INDEX "teachers_school_id_name_idx";--> statement-breakpoint
CREATE INDEX "agent_fund_accounts_name_grams_idx" ON "agent_fund_accounts" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "app_charge_items_name_grams_idx" ON "app_charge_items" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "app_versions_version_number_trgm_idx" ON "app_versions" USING gin ("version_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "comprehensive_charges_name_grams_idx" ON "comprehensive_charges" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "developers_name_grams_idx" ON "developers" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "device_classes_name_grams_idx" ON "device_classes" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "device_classes_manufacturer_name_grams_idx" ON "device_classes" USING gin (search_grams("manufacturer_name"));--> statement-breakpoint
CREATE INDEX "device_deliveries_delivery_no_trgm_idx" ON "device_deliveries" USING gin ("delivery_no" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "device_deliveries_consignee_name_grams_idx" ON "device_deliveries" USING gin (search_grams("consignee_name"));--> statement-breakpoint
CREATE INDEX "device_warranties_serial_number_trgm_idx" ON "device_warranties" USING gin ("serial_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_serial_number_trgm_idx" ON "devices" USING gin ("serial_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "education_directories_name_grams_idx" ON "education_directories" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "fever_alerts_person_name_grams_idx" ON "fever_alerts" USING gin (search_grams("person_name"));--> statement-breakpoint
CREATE INDEX "licenses_ticket_trgm_idx" ON "licenses" USING gin ("ticket" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "licenses_student_name_grams_idx" ON "licenses" USING gin (search_grams("student_name"));--> statement-breakpoint
CREATE INDEX "maintenance_tickets_ticket_no_trgm_idx" ON "maintenance_tickets" USING gin ("ticket_no" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "nvrs_name_grams_idx" ON "nvrs" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "nvrs_ip_trgm_idx" ON "nvrs" USING gin ("ip" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "device_orders_order_no_trgm_idx" ON "device_orders" USING gin ("order_no" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "device_orders_consignee_name_grams_idx" ON "device_orders" USING gin (search_grams("consignee_name"));--> statement-breakpoint
CREATE INDEX "parents_school_id_phone_num_idx" ON "parents" USING btree ("school_id","phone_num" text_pattern_ops,"id");--> statement-breakpoint
CREATE INDEX "parents_name_grams_idx" ON "parents" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "payment_provider_calls_reference_trgm_idx" ON "payment_provider_calls" USING gin ("reference" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pick_up_persons_name_grams_idx" ON "pick_up_persons" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "platform_logs_route_trgm_idx" ON "platform_logs" USING gin ("route" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "recognition_records_person_name_grams_idx" ON "recognition_records" USING gin (search_grams("person_name"));--> statement-breakpoint
CREATE INDEX "sales_areas_name_grams_idx" ON "sales_areas" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "sales_areas_provinces_grams_idx" ON "sales_areas" USING gin (search_grams("provinces"));--> statement-breakpoint
CREATE INDEX "sales_areas_cities_grams_idx" ON "sales_areas" USING gin (search_grams("cities"));--> statement-breakpoint
CREATE INDEX "school_charges_name_grams_idx" ON "school_charges" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "school_classes_class_name_grams_idx" ON "school_classes" USING gin (search_grams("class_name"));--> statement-breakpoint
CREATE INDEX "school_holidays_name_grams_idx" ON "school_holidays" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "schools_school_name_grams_idx" ON "schools" USING gin (search_grams("school_name"));--> statement-breakpoint
CREATE INDEX "students_name_grams_idx" ON "students" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "teachers_name_grams_idx" ON "teachers" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "terminal_app_upgrades_name_grams_idx" ON "terminal_app_upgrades" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "terminal_app_versions_version_number_trgm_idx" ON "terminal_app_versions" USING gin ("version_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "terminal_configs_name_grams_idx" ON "terminal_configs" USING gin (search_grams("name"));--> statement-breakpoint
CREATE INDEX "terminals_serial_number_trgm_idx" ON "terminals" USING gin ("serial_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "parents_school_id_name_idx" ON "parents" USING btree ("school_id","name" collate "campus_names");--> statement-breakpoint
CREATE INDEX "pick_up_persons_school_id_name_idx" ON "pick_up_persons" USING btree ("school_id","name" collate "campus_names");--> statement-breakpoint
CREATE INDEX "students_school_id_name_idx" ON "students" USING btree ("school_id","name" collate "campus_names");--> statement-breakpoint
CREATE INDEX "teachers_school_id_name_idx" ON "teachers" USING btree ("school_id","name" collate "campus_names");