// The current user and location in React: the shell provides them from its loader; using either
// hook outside the provider is a programming error (spec section 8, "Other").
import { createContext, type ReactNode, useContext } from "react";
import type { CurrentUser } from "~/auth/user";
import type { Scope } from "./location-choice.server";

export interface AssignedLocation {
  locationId: string;
  role: string;
  location: { name: string; code: string };
}

interface LocationContextValue {
  scope: Scope;
  locations: AssignedLocation[];
}

const UserContext = createContext<CurrentUser | null>(null);
const LocationContext = createContext<LocationContextValue | null>(null);

export function ViewerProvider({
  user,
  scope,
  locations,
  children,
}: { user: CurrentUser; children: ReactNode } & LocationContextValue) {
  return (
    <UserContext.Provider value={user}>
      <LocationContext.Provider value={{ scope, locations }}>{children}</LocationContext.Provider>
    </UserContext.Provider>
  );
}

export function useCurrentUser(): CurrentUser {
  const user = useContext(UserContext);
  if (!user) throw new Error("useCurrentUser must be used within the app shell's ViewerProvider");
  return user;
}

export function useLocationScope(): LocationContextValue {
  const value = useContext(LocationContext);
  if (!value) throw new Error("useLocationScope must be used within the app shell's ViewerProvider");
  return value;
}
