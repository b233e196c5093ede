CREATE TABLE "recognition_hour_counts" (
	"day" date NOT NULL,
	"school_id" integer NOT NULL,
	"hour" smallint NOT NULL,
	"recognitions" integer NOT NULL,
	CONSTRAINT "recognition_hour_counts_day_school_id_hour_pk" PRIMARY KEY("day","school_id","hour")
);
--> statement-breakpoint
-- The count rides in the key's index, so a past day's hours are read by an index-only scan (a day is
-- up to schools × 24 rows); the upsert's conflict target stays (day, school_id, hour).
ALTER TABLE "recognition_hour_counts" DROP CONSTRAINT "recognition_hour_counts_day_school_id_hour_pk",
  ADD CONSTRAINT "recognition_hour_counts_day_school_id_hour_pk" PRIMARY KEY ("day", "school_id", "hour") INCLUDE ("recognitions");
