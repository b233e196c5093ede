CREATE TABLE "recognition_hour_counts" (
	"day" date NOT NULL,
	"school_id" integer NOT NULL,
	"hour" smallint NOT NULL,
	"recognitions" integer NOT NULL,
	CONSTRAINT "recognition_hour_counts_day_school_id_hour_pk" PRIMARY KEY("day","school_id","hour")
);
