DROP INDEX `items_location_state_expiration_idx`;--> statement-breakpoint
CREATE INDEX `items_location_shelf_order_idx` ON `items` (`location_id`,("state" = 'sealed' OR "state" = 'in_use'),(CASE WHEN "expiration_date" IS NULL THEN 'undated' ELSE "expiration_date" END),`received_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_shelf_order_idx` ON `items` (("state" = 'sealed' OR "state" = 'in_use'),(CASE WHEN "expiration_date" IS NULL THEN 'undated' ELSE "expiration_date" END),`received_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_location_state_order_idx` ON `items` (`location_id`,`state`,(CASE WHEN "expiration_date" IS NULL THEN 'undated' ELSE "expiration_date" END),`received_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_state_order_idx` ON `items` (`state`,(CASE WHEN "expiration_date" IS NULL THEN 'undated' ELSE "expiration_date" END),`received_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_location_order_idx` ON `items` (`location_id`,(CASE WHEN "expiration_date" IS NULL THEN 'undated' ELSE "expiration_date" END),`received_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_order_idx` ON `items` ((CASE WHEN "expiration_date" IS NULL THEN 'undated' ELSE "expiration_date" END),`received_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_lot_idx` ON `items` (`lot`);