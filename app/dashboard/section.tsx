// A dashboard widget in its own section boundary (spec section 8, section-level): when its data
// could not be read (the loader says so) or it fails to render, the section shows "Something went
// wrong" with Try Again (reads the page's data again) and Reload Page, and every other widget
// keeps working. Phone first: a card in the page's stack; on a wide screen a cell of its grid.
import { useLocation, useRevalidator } from "@remix-run/react";
import { Component, type ReactNode } from "react";
import { SectionErrorFallback } from "~/errors/error-screen";
import type { Loaded } from "./read.server";

const CARD = "flex min-w-0 flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm";

interface CardProps {
  id: string;
  title: ReactNode;
  /** Links beside the title (the full list the widget shows the start of). */
  action?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A titled card, named by its heading for screen readers. */
export function Card({ id, title, action, className = "", children }: CardProps) {
  return (
    <section aria-labelledby={`${id}-title`} data-widget={id} className={`${CARD} ${className}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h2 id={`${id}-title`} className="font-semibold text-lg">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

/** The section error in place of a widget. */
function SectionError({ id, className = "", onRetry }: { id: string; className?: string; onRetry?: () => void }) {
  const location = useLocation();
  return (
    <div data-widget={id} data-widget-error="" className={`min-w-0 ${className}`}>
      <SectionErrorFallback currentUrl={location.pathname + location.search} onRetry={onRetry} />
    </div>
  );
}

/** Catches a widget's render error, so one failing widget leaves the rest of the page working. */
class RenderBoundary extends Component<
  { fallback: (reset: () => void) => ReactNode; children: ReactNode },
  { failed: boolean }
> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: unknown) {
    console.error(error);
  }
  render() {
    return this.state.failed ? this.props.fallback(() => this.setState({ failed: false })) : this.props.children;
  }
}

/**
 * A widget: its card with `render(data)` when its data was read, else the section error (Try Again
 * reads the page's data again, without leaving it).
 */
export function Widget<T>({
  loaded,
  render,
  ...card
}: Omit<CardProps, "children"> & { loaded: Loaded<T>; render: (data: T) => ReactNode }) {
  const revalidator = useRevalidator();
  if (!loaded.ok)
    return <SectionError id={card.id} className={card.className} onRetry={() => revalidator.revalidate()} />;
  return (
    <RenderBoundary
      fallback={(reset) => (
        <SectionError
          id={card.id}
          className={card.className}
          onRetry={() => {
            reset();
            revalidator.revalidate();
          }}
        />
      )}
    >
      <Card {...card}>{render(loaded.data)}</Card>
    </RenderBoundary>
  );
}
