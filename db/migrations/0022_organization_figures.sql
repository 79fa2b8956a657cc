CREATE TABLE `organization_figures` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`computed_at` integer NOT NULL,
	`location_ids` text NOT NULL,
	`stats` text NOT NULL,
	`waste` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
