// The location roles, without any database code, so browser modules can list them cheaply.
export const LOCATION_ROLES = ["ADMIN", "MANAGER", "STAFF"] as const;
export type LocationRole = (typeof LOCATION_ROLES)[number];
