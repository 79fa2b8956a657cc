import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/products");
export const meta = comingSoonMeta("/products");

export default function Screen() {
  return <ComingSoon path="/products" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
