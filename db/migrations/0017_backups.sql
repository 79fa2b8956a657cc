CREATE TABLE `backup_restores` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`backup_id` text NOT NULL,
	`requested_by` text,
	`requested_at` integer NOT NULL,
	`status` text NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`rows_done` integer DEFAULT 0 NOT NULL,
	`rows_total` integer,
	`cursor` text,
	`message` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`backup_id`) REFERENCES `backups`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `backup_restores_org_requested_idx` ON `backup_restores` (`organization_id`,`requested_at`);--> statement-breakpoint
CREATE INDEX `backup_restores_status_idx` ON `backup_restores` (`status`,`requested_at`);--> statement-breakpoint
CREATE TABLE `backups` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`origin` text NOT NULL,
	`requested_by` text,
	`requested_at` integer NOT NULL,
	`status` text NOT NULL,
	`r2_key` text NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`rows_done` integer DEFAULT 0 NOT NULL,
	`rows_total` integer,
	`size_bytes` integer,
	`cursor` text,
	`manifest` text,
	`error` text,
	`rehearsal_status` text,
	`rehearsed_at` integer,
	`rehearsal` text,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "backups_progress" CHECK("backups"."rows_done" >= 0)
);
--> statement-breakpoint
CREATE INDEX `backups_org_requested_idx` ON `backups` (`organization_id`,`requested_at`);--> statement-breakpoint
CREATE INDEX `backups_status_idx` ON `backups` (`status`,`requested_at`);