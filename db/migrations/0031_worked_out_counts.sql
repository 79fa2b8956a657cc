CREATE TABLE `worked_out_counts` (
	`session_id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`computed_at` integer NOT NULL,
	`totals` text NOT NULL,
	`vials` text NOT NULL,
	`bulk` text NOT NULL,
	`missing` text NOT NULL,
	`not_counted` text NOT NULL,
	`during` text NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `audit_sessions`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "worked_out_counts_status" CHECK("worked_out_counts"."status" IN ('in_progress', 'submitted', 'approved', 'rejected'))
);
