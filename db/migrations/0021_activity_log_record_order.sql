DROP INDEX `activity_log_entity_idx`;--> statement-breakpoint
CREATE INDEX `activity_log_entity_idx` ON `activity_log` (`entity`,`entity_id`,`at`,`id`);