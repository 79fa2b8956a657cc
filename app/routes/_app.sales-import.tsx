import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/sales-import");
export const meta = comingSoonMeta("/sales-import");

export default function Screen() {
  return <ComingSoon path="/sales-import" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
