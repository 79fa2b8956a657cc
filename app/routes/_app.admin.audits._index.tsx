import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/admin/audits");
export const meta = comingSoonMeta("/admin/audits");

export default function Screen() {
  return <ComingSoon path="/admin/audits" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
