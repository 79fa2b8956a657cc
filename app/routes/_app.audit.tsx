import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/audit");
export const meta = comingSoonMeta("/audit");

export default function Screen() {
  return <ComingSoon path="/audit" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
