-- The stock ledger is history: movements are appended, never edited or removed (a correction is a
-- new movement). stock_levels, its cached balance, is what changes.
CREATE TRIGGER `stock_movements_no_update` BEFORE UPDATE ON `stock_movements`
BEGIN
	SELECT RAISE(ABORT, 'stock_movements is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `stock_movements_no_delete` BEFORE DELETE ON `stock_movements`
BEGIN
	SELECT RAISE(ABORT, 'stock_movements is append-only');
END;
