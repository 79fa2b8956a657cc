-- The dashboard's organization figures move to worked_out (0026): one table for everything the
-- jobs worker works out for an organization (ADR 0030), the balancing suggestions too. Derived data:
-- nothing is lost, the next run of the work cron writes it again.
DROP TABLE `organization_figures`;
