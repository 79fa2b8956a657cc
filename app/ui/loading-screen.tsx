export const LOADING_TEXT = "Loading your clinic management system...";

/** Shown while sign-in resolves into the first signed-in page (spec sections 1 and 2). */
export function LoadingScreen() {
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-4 p-6" aria-busy="true">
      <span aria-hidden="true" className="size-8 animate-spin rounded-full border-4 border-sky-200 border-t-sky-700" />
      <p role="status" className="text-slate-700">
        {LOADING_TEXT}
      </p>
    </main>
  );
}
