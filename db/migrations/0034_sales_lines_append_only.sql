-- Imported sales lines are history, like the ledger: appended, never edited or removed. What an item
-- is (service, retail, unmapped) lives in sale_items, so a mapping never touches a line. A booking
-- (what a retail line took from stock) is written once, with its SALE movement.
CREATE TRIGGER `sales_lines_no_update` BEFORE UPDATE ON `sales_lines`
BEGIN
	SELECT RAISE(ABORT, 'sales_lines is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `sales_lines_no_delete` BEFORE DELETE ON `sales_lines`
BEGIN
	SELECT RAISE(ABORT, 'sales_lines is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `sale_bookings_no_update` BEFORE UPDATE ON `sale_bookings`
BEGIN
	SELECT RAISE(ABORT, 'sale_bookings is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `sale_bookings_no_delete` BEFORE DELETE ON `sale_bookings`
BEGIN
	SELECT RAISE(ABORT, 'sale_bookings is append-only');
END;
