DROP INDEX `usage_entries_variation_lot_idx`;--> statement-breakpoint
DROP INDEX `usage_entries_location_used_idx`;--> statement-breakpoint
CREATE INDEX `usage_entries_used_idx` ON `usage_entries` (`used_at`,`id`,`location_id`,`provider`);--> statement-breakpoint
CREATE INDEX `usage_entries_variation_idx` ON `usage_entries` (`variation_id`,`location_id`,`used_at`,`id`);--> statement-breakpoint
CREATE INDEX `usage_entries_lot_idx` ON `usage_entries` (`lot`,`variation_id`,`location_id`,`used_at`,`id`);--> statement-breakpoint
CREATE INDEX `usage_entries_service_idx` ON `usage_entries` (`service_id`,`location_id`,`used_at`,`id`);--> statement-breakpoint
CREATE INDEX `usage_entries_patient_idx` ON `usage_entries` (lower("patient_ref"),`location_id`,`used_at`,`id`);--> statement-breakpoint
CREATE INDEX `usage_entries_location_used_idx` ON `usage_entries` (`location_id`,`used_at`,`id`,`provider`);