CREATE TABLE `worked_out` (
	`organization_id` text NOT NULL,
	`kind` text NOT NULL,
	`computed_at` integer NOT NULL,
	`location_ids` text NOT NULL,
	`body` text NOT NULL,
	PRIMARY KEY(`organization_id`, `kind`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "worked_out_kind" CHECK("worked_out"."kind" IN ('dashboard_figures', 'balancing_suggestions'))
);
