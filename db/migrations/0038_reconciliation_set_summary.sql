-- Derived rows without their set's summary: emptied, so the next run of the jobs worker works them
-- out again (the screen sums live meanwhile).
DELETE FROM `reconciliation_worked_out`;--> statement-breakpoint
DROP INDEX `reconciliation_worked_out_summary_idx`;--> statement-breakpoint
ALTER TABLE `reconciliation_worked_out` ADD `set_rows` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `reconciliation_worked_out` ADD `set_flagged` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `reconciliation_worked_out` ADD `set_variance_cents` integer DEFAULT 0 NOT NULL;