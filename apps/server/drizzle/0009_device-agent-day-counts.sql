CREATE TABLE "device_agent_day_counts" (
	"day" date NOT NULL,
	"agent_id" integer NOT NULL,
	"device_class_code" text NOT NULL,
	"stocked" integer DEFAULT 0 NOT NULL,
	"shipped" integer DEFAULT 0 NOT NULL,
	"installed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "device_agent_day_counts_day_agent_id_device_class_code_pk" PRIMARY KEY("day","agent_id","device_class_code")
);
--> statement-breakpoint
CREATE INDEX "device_agent_day_counts_agent_id_day_idx" ON "device_agent_day_counts" USING btree ("agent_id","day");