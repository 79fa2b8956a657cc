// Role badges of the location switcher: ADMIN red, MANAGER blue, STAFF green, anything else grey.
const COLOURS: Record<string, string> = {
  ADMIN: "bg-red-100 text-red-800 ring-red-600/20",
  MANAGER: "bg-blue-100 text-blue-800 ring-blue-600/20",
  STAFF: "bg-green-100 text-green-800 ring-green-600/20",
};
const OTHER = "bg-slate-100 text-slate-700 ring-slate-500/20";

export function badgeColour(role: string): string {
  return COLOURS[role] ?? OTHER;
}

export function RoleBadge({ role }: { role: string }) {
  return (
    <span
      data-role={role}
      className={`inline-flex shrink-0 items-center rounded px-1.5 py-0.5 font-semibold text-[0.65rem] ring-1 ring-inset ${badgeColour(role)}`}
    >
      {role}
    </span>
  );
}
