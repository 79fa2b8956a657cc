// The card of a page outside the app shell (sign in, change password): the logo, a heading, a
// line under it, then the page's content, centred on any screen width.
import type { ReactNode } from "react";

interface StandalonePageProps {
  title: string;
  subtitle: string;
  children: ReactNode;
}

export function StandalonePage({ title, subtitle, children }: StandalonePageProps) {
  return (
    <main className="flex min-h-full items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <header className="mb-6 grid grid-cols-[auto_1fr] items-center gap-x-3">
          <img src="/favicon.svg" alt="" width={36} height={36} className="row-span-2" />
          <h1 className="font-semibold text-xl">{title}</h1>
          <p className="text-slate-600 text-sm">{subtitle}</p>
        </header>
        {children}
      </div>
    </main>
  );
}
