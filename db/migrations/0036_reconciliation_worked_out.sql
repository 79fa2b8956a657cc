CREATE TABLE `reconciliation_worked_out` (
	`organization_id` text NOT NULL,
	`place` text NOT NULL,
	`days` integer NOT NULL,
	`period_from` text NOT NULL,
	`period_to` text NOT NULL,
	`computed_at` integer NOT NULL,
	`rank` integer NOT NULL,
	`variation_id` text NOT NULL,
	`expected_services` integer NOT NULL,
	`expected_retail` integer NOT NULL,
	`drawn` integer NOT NULL,
	`wasted` integer NOT NULL,
	`missing` integer NOT NULL,
	`adjusted_out` integer NOT NULL,
	`counted_out` integer NOT NULL,
	`sold` integer NOT NULL,
	`change` integer NOT NULL,
	`tracked` integer NOT NULL,
	`flagged` integer NOT NULL,
	`variance_cents` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `place`, `days`, `rank`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "reconciliation_worked_out_days" CHECK("reconciliation_worked_out"."days" IN (30, 365))
);
--> statement-breakpoint
CREATE INDEX `reconciliation_worked_out_summary_idx` ON `reconciliation_worked_out` (`organization_id`,`place`,`days`,`computed_at`,`flagged`,`variance_cents`);