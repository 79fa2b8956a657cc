export * from "./activity/activity-log";
export * from "./jobs/job-runs";
export * from "./organization/locations";
export * from "./organization/organizations";
export * from "./people/sessions";
export * from "./people/sign-in-throttle";
export * from "./people/user-location-roles";
export * from "./people/users";
