import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/recipes-import");
export const meta = comingSoonMeta("/recipes-import");

export default function Screen() {
  return <ComingSoon path="/recipes-import" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
