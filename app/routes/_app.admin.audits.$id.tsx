import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/admin/audits/{id}");
export const meta = comingSoonMeta("/admin/audits/{id}");

export default function Screen() {
  return <ComingSoon path="/admin/audits/{id}" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
