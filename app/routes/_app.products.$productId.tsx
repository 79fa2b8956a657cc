import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/products/{id}");
export const meta = comingSoonMeta("/products/{id}");

export default function Screen() {
  return <ComingSoon path="/products/{id}" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
