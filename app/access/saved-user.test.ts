import { afterEach, describe, expect, it, vi } from "vitest";
import type { CurrentUser } from "~/auth/user";
import { clearSavedUser, loadSavedUser, SAVED_USER_KEY, saveUser } from "./saved-user";

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, v),
  };
}

const owner: CurrentUser = {
  id: "u1",
  email: "owner@demo.clinic",
  firstName: "Olivia",
  lastName: "Owner",
  role: "ADMIN",
  organizationRole: "ORGANIZATION_ADMIN",
  locationRoles: [{ locationId: "all", role: "ADMIN" }],
};

afterEach(() => vi.restoreAllMocks());

describe("saved user", () => {
  it("round-trips through session storage and is gone after logout", () => {
    const storage = memoryStorage();
    saveUser(storage, owner);
    expect(loadSavedUser(storage)).toEqual(owner);
    clearSavedUser(storage);
    expect(loadSavedUser(storage)).toBeNull();
  });

  it("discards corrupt data with a console error", () => {
    const storage = memoryStorage();
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    for (const corrupt of ["{not json", JSON.stringify({ ...owner, role: "KING" }), JSON.stringify({ id: 1 })]) {
      storage.setItem(SAVED_USER_KEY, corrupt);
      expect(loadSavedUser(storage)).toBeNull();
      expect(storage.getItem(SAVED_USER_KEY)).toBeNull();
    }
    expect(error).toHaveBeenCalledTimes(3);
  });
});
