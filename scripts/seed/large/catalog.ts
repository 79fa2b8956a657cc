// The large organization's people and catalogue: locations in mixed time zones, users with mixed
// roles, vendors, products of every kind (toxins, fillers, multi-dose vials, a few controlled
// substances, bulk supplies), their variations and the services treatments are booked under.
import type { LocationRole } from "../../../db/schema/people/location-roles";
import type { Random } from "./random";
import type { Sizes } from "./sizes";
import { LARGE_TARGET_PRODUCT, LARGE_TARGET_VARIATION, LARGE_USERS } from "./targets";
import type { Writer } from "./writer";

const TIME_ZONES = [
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Los_Angeles",
  "America/Phoenix",
  "Europe/London",
  "Europe/Berlin",
  "Australia/Sydney",
  "Asia/Tokyo",
  "Pacific/Honolulu",
];
const CITIES = [
  "Midtown",
  "Lakeside",
  "Highlands",
  "Harbor",
  "Old Town",
  "Riverside",
  "Uptown",
  "Parkview",
  "Bayfront",
  "Hillcrest",
];
const FIRST = [
  "Ava",
  "Ben",
  "Chloe",
  "Dan",
  "Emma",
  "Finn",
  "Grace",
  "Hugo",
  "Isla",
  "Jack",
  "Kai",
  "Lena",
  "Milo",
  "Nora",
  "Omar",
  "Pia",
  "Quinn",
  "Rosa",
  "Sami",
  "Tess",
];
const LAST = [
  "Adams",
  "Baker",
  "Cruz",
  "Diaz",
  "Evans",
  "Foster",
  "Garcia",
  "Hughes",
  "Ito",
  "Jensen",
  "Khan",
  "Lopez",
  "Moreau",
  "Nguyen",
  "Okafor",
  "Patel",
  "Reyes",
  "Silva",
  "Tanaka",
  "Weber",
];

export interface Kind {
  category: string;
  tracking: "serialized" | "bulk";
  baseUnit: string;
  unitScale: 1 | 10 | 100 | 1000;
  beyondUse: readonly (number | null)[];
  storage: "room" | "refrigerated" | "frozen";
  controlled: boolean;
  /** Three packages: [name, base units]. */
  packages: readonly (readonly [string, number])[];
  words: readonly string[];
}

const KINDS: readonly Kind[] = [
  {
    category: "Neurotoxin",
    tracking: "serialized",
    baseUnit: "U",
    unitScale: 1,
    beyondUse: [24, 168],
    storage: "refrigerated",
    controlled: false,
    packages: [
      ["50 U vial", 50],
      ["100 U vial", 100],
      ["300 U vial", 300],
    ],
    words: ["Botulinum", "Toxin", "Neuro"],
  },
  {
    category: "Dermal filler",
    tracking: "serialized",
    baseUnit: "mL",
    unitScale: 100,
    beyondUse: [24, null],
    storage: "room",
    controlled: false,
    packages: [
      ["0.8 mL syringe", 80],
      ["1 mL syringe", 100],
      ["1.2 mL syringe", 120],
    ],
    words: ["Hyaluronic", "Filler", "Volume"],
  },
  {
    category: "Injectable",
    tracking: "serialized",
    baseUnit: "mL",
    unitScale: 100,
    beyondUse: [720, 672, null],
    storage: "room",
    controlled: false,
    packages: [
      ["10 mL multi-dose vial", 1000],
      ["20 mL multi-dose vial", 2000],
      ["30 mL multi-dose vial", 3000],
    ],
    words: ["Lidocaine", "Saline", "Bacteriostatic"],
  },
  {
    category: "Controlled substance",
    tracking: "serialized",
    baseUnit: "mg",
    unitScale: 10,
    beyondUse: [24],
    storage: "room",
    controlled: true,
    packages: [
      ["10 mg vial", 100],
      ["50 mg vial", 500],
      ["100 mg vial", 1000],
    ],
    words: ["Ketamine", "Midazolam", "Fentanyl"],
  },
  {
    category: "Supplies",
    tracking: "bulk",
    baseUnit: "each",
    unitScale: 1,
    beyondUse: [null],
    storage: "room",
    controlled: false,
    packages: [
      ["Box of 50", 50],
      ["Box of 100", 100],
      ["Case of 1000", 1000],
    ],
    words: ["Gauze", "Needles", "Gloves", "Prep pads"],
  },
  {
    category: "Skincare",
    tracking: "bulk",
    baseUnit: "bottle",
    unitScale: 1,
    beyondUse: [null],
    storage: "room",
    controlled: false,
    packages: [
      ["Single", 1],
      ["Pack of 6", 6],
      ["Case of 24", 24],
    ],
    words: ["Serum", "Cleanser", "SPF 50", "Gel"],
  },
];
/** How often each kind is drawn: toxins, fillers and injectables most, controlled rarely. */
const KIND_PATTERN = [0, 1, 2, 4, 5, 0, 1, 2, 4, 3, 0, 1, 2, 4, 5, 0, 1, 2, 4, 5];

export interface Location {
  id: string;
  code: string;
  name: string;
  /** Who works here (user ids). */
  users: string[];
}

export interface Variation {
  id: string;
  name: string;
  product: string;
  kind: Kind;
  unitsPerPackage: number;
  costCents: number;
  beyondUseHours: number | null;
}

export interface Catalog {
  organizationId: string;
  /** The organization owner (LARGE_USERS.owner), who marks recalls. */
  owner: string;
  locations: Location[];
  userNames: Map<string, string>;
  vendors: { id: string; name: string }[];
  serialized: Variation[];
  bulk: Variation[];
  services: { id: string; name: string }[];
  /** The variation of LARGE_TARGETS (serialized, at every location). */
  target: Variation;
}

/** GS1 check digit of the first digits of a GTIN. */
function withCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return digits + String((10 - (sum % 10)) % 10);
}

export function writeCatalog(w: Writer, random: Random, sizes: Sizes, start: number, passwordHash: string): Catalog {
  const at = start;
  const organizationId = random.uuid(at);
  w.insert("organizations", "id name created_at")(organizationId, "Large Clinics", at);

  const insertLocation = w.insert("locations", "id organization_id name code address timezone active created_at");
  const locations: Location[] = [];
  for (let i = 0; i < sizes.locations; i++) {
    const code = `L${String(i + 1).padStart(2, "0")}`;
    const id = random.uuid(at);
    insertLocation(
      id,
      organizationId,
      CITIES[i] ?? code,
      code,
      `${100 + i} Clinic Street`,
      TIME_ZONES[i % TIME_ZONES.length] ?? "UTC",
      1,
      at,
    );
    locations.push({ id, code, name: CITIES[i] ?? code, users: [] });
  }

  const insertUser = w.insert(
    "users",
    "id organization_id email first_name last_name password_hash organization_role active created_at",
  );
  const insertRole = w.insert("user_location_roles", "user_id location_id role created_at");
  const userNames = new Map<string, string>();
  const first = locations[0] as Location;
  const addUser = (
    email: string,
    firstName: string,
    lastName: string,
    orgRole: string | null,
    roles: [Location, LocationRole][],
  ) => {
    const id = random.uuid(at);
    insertUser(id, organizationId, email, firstName, lastName, passwordHash, orgRole, 1, at);
    userNames.set(id, `${firstName} ${lastName}`);
    for (const [location, role] of roles) {
      insertRole(id, location.id, role, at);
      location.users.push(id);
    }
    return id;
  };
  const owner = addUser(LARGE_USERS.owner.email, "Olive", "Owner", "ORGANIZATION_ADMIN", []);
  addUser(LARGE_USERS.manager.email, "Mara", "Manager", null, [[first, "MANAGER"]]);
  addUser(LARGE_USERS.staff.email, "Stan", "Staff", null, [[first, "STAFF"]]);
  for (let i = 0; i < sizes.users; i++) {
    const home = locations[i % locations.length] as Location;
    const role: LocationRole = i % 20 === 0 ? "ADMIN" : i % 5 === 0 ? "MANAGER" : "STAFF";
    const roles: [Location, LocationRole][] = [[home, role]];
    // Some float between two locations.
    const other = locations[(i + 3) % locations.length] as Location;
    if (i % 7 === 0 && other !== home) roles.push([other, "STAFF"]);
    const firstName = FIRST[i % FIRST.length] as string;
    const lastName = LAST[Math.floor(i / FIRST.length) % LAST.length] as string;
    addUser(`user${String(i + 1).padStart(4, "0")}@large.clinic`, firstName, lastName, null, roles);
  }

  const insertVendor = w.insert("vendors", "id organization_id name account_number lead_time_days active created_at");
  const vendors: { id: string; name: string }[] = [];
  for (let i = 0; i < sizes.vendors; i++) {
    const vendor = { id: random.uuid(at), name: `Vendor ${String(i + 1).padStart(3, "0")} Medical` };
    insertVendor(vendor.id, organizationId, vendor.name, `ACC-${10000 + i}`, random.int(1, 14), 1, at);
    vendors.push(vendor);
  }

  const insertProduct = w.insert(
    "products",
    "id organization_id name sku category manufacturer default_vendor_id tracking base_unit unit_scale beyond_use_hours storage cost_cents price_cents controlled active created_at",
  );
  const insertVariation = w.insert(
    "product_variations",
    "id product_id name sku gtin units_per_package cost_cents active created_at",
  );
  const insertBarcode = w.insert("barcodes", "id code variation_id item_id created_at");
  const serialized: Variation[] = [];
  const bulk: Variation[] = [];
  let target: Variation | undefined;
  let variationCount = 0;
  for (let i = 0; i < sizes.products; i++) {
    const kind = KINDS[KIND_PATTERN[i % KIND_PATTERN.length] as number] as Kind;
    // The first product is the one the bench searches for and whose lot is recalled in its report.
    const name =
      i === 0
        ? LARGE_TARGET_PRODUCT
        : `${random.pick(kind.words)} ${CITIES[i % CITIES.length]} ${String(i + 1).padStart(4, "0")}`;
    const productId = random.uuid(at);
    const beyondUseHours = i === 0 ? 168 : random.pick(kind.beyondUse);
    const unitCost = random.int(100, 40_000);
    insertProduct(
      productId,
      organizationId,
      name,
      `SKU-${String(i + 1).padStart(5, "0")}`,
      kind.category,
      `Maker ${i % 40}`,
      (vendors[i % vendors.length] as { id: string }).id,
      kind.tracking,
      kind.baseUnit,
      kind.unitScale,
      beyondUseHours,
      kind.storage,
      unitCost,
      unitCost * 2,
      kind.controlled ? 1 : 0,
      i % 50 === 49 ? 0 : 1,
      at,
    );
    const perProduct = Math.round(sizes.variations / sizes.products);
    for (let j = 0; j < perProduct; j++) {
      const [packageName, units] = kind.packages[j % kind.packages.length] as readonly [string, number];
      const variationName = j < kind.packages.length ? packageName : `${packageName} (${j + 1})`;
      const id = random.uuid(at);
      variationCount++;
      const gtin = j === 1 ? null : withCheckDigit(`0${String(variationCount).padStart(12, "0")}`);
      const costCents = unitCost * Math.max(1, Math.round(units / 100));
      insertVariation(
        id,
        productId,
        variationName,
        `SKU-${String(i + 1).padStart(5, "0")}-${j + 1}`,
        gtin,
        units,
        costCents,
        1,
        at,
      );
      if (j === 0) insertBarcode(random.uuid(at), `SHELF-${String(variationCount).padStart(6, "0")}`, id, null, at);
      const variation: Variation = {
        id,
        name: variationName,
        product: name,
        kind,
        unitsPerPackage: units,
        costCents,
        beyondUseHours,
      };
      if (i === 0 && variationName === LARGE_TARGET_VARIATION) target = variation;
      else if (i % 50 !== 49) (kind.tracking === "serialized" ? serialized : bulk).push(variation);
    }
  }

  const insertService = w.insert(
    "services",
    "id organization_id name code category price_cents duration_minutes active created_at",
  );
  const services: { id: string; name: string }[] = [];
  for (let i = 0; i < sizes.services; i++) {
    const service = { id: random.uuid(at), name: `Treatment ${String(i + 1).padStart(3, "0")}` };
    insertService(
      service.id,
      organizationId,
      service.name,
      `SVC${String(i + 1).padStart(4, "0")}`,
      "Aesthetics",
      random.int(50, 900) * 100,
      random.pick([15, 30, 45, 60]),
      1,
      at,
    );
    services.push(service);
  }
  if (!target) throw new Error("Large seed: the target variation was not made");
  return { organizationId, owner, locations, userNames, vendors, serialized, bulk, services, target };
}
