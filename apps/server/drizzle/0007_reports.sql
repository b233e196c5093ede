CREATE TABLE "device_day_counts" (
	"day" date NOT NULL,
	"school_id" integer NOT NULL,
	"device_class_code" text NOT NULL,
	"stocked" integer DEFAULT 0 NOT NULL,
	"shipped" integer DEFAULT 0 NOT NULL,
	"installed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "device_day_counts_day_school_id_device_class_code_pk" PRIMARY KEY("day","school_id","device_class_code")
);
--> statement-breakpoint
CREATE TABLE "device_state_counts" (
	"school_id" integer NOT NULL,
	"device_class_code" text NOT NULL,
	"state" smallint NOT NULL,
	"devices" integer NOT NULL,
	CONSTRAINT "device_state_counts_school_id_device_class_code_state_pk" PRIMARY KEY("school_id","device_class_code","state")
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "shipped_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "installed_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "device_day_counts_school_id_day_idx" ON "device_day_counts" USING btree ("school_id","day");