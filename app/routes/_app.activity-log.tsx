import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/activity-log");
export const meta = comingSoonMeta("/activity-log");

export default function Screen() {
  return <ComingSoon path="/activity-log" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
