// /recipes-import: upload a recipes file (CSV or XLSX), see what it changes against today's
// recipes (every row's problem listed), then apply it all at once or discard it (app/imports/
// recipes.server.ts). READ_IMPORTS sees imports and previews; admins (WRITE_IMPORTS and the
// catalogue) upload, apply and discard; anyone else is told why the form is not theirs.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { timeZoneHere } from "~/access/actor";
import { actorHere } from "~/access/door.server";
import { orOutage } from "~/http/outage.server";
import { done, type FormAnswer, type FormProblem, intentOf, invalid, refused } from "~/http/outcome.server";
import {
  applyRecipes,
  canImportRecipes,
  discardRecipes,
  recipeImports,
  recipesPreview,
  uploadRecipes,
} from "~/imports/recipes.server";
import {
  RECIPES_FORM_MESSAGES,
  RECIPES_INTENTS,
  RecipesApplyForm,
  RecipesDiscardForm,
  RecipesPageQuery,
} from "~/imports/recipes-forms";
import {
  ImportsTable,
  PREVIEW_ROWS_PAGE,
  PREVIEW_SERVICES_PAGE,
  PreviewCard,
  RECIPES_PATH,
  type ShownPreview,
  UploadCard,
} from "~/imports/recipes-screen";
import { area } from "~/shell/areas";
import { showInstant } from "~/ui/dates";

export const meta: MetaFunction = () => [{ title: "Recipes Import · Clinic Inventory" }];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area(RECIPES_PATH).permission);
  const query = RecipesPageQuery.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  const { db, env } = args.context;
  const timeZone = timeZoneHere(actor);
  const now = new Date();
  const [list, found] = await Promise.all([
    orOutage(recipeImports(db, actor, query.page)),
    query.job ? orOutage(recipesPreview(db, env.FILES, actor, query.job)) : null,
  ]);
  if (found && !found.ok) throw data(found.message, { status: found.refusal === "forbidden" ? 403 : 404 });
  let preview: ShownPreview | null = null;
  if (found?.ok) {
    const p = found.preview;
    const rowsAt = (query.rows - 1) * PREVIEW_ROWS_PAGE;
    const servicesAt = (query.services - 1) * PREVIEW_SERVICES_PAGE;
    preview = {
      job: { ...p.job, createdAt: showInstant(p.job.createdAt, timeZone, now) },
      errors: p.errors.slice(rowsAt, rowsAt + PREVIEW_ROWS_PAGE),
      errorsTotal: p.errors.length,
      services: p.services.slice(servicesAt, servicesAt + PREVIEW_SERVICES_PAGE),
      servicesTotal: p.services.length,
      changes: p.changes,
      versions: p.versions,
      rowsPage: query.rows,
      servicesPage: query.services,
    };
  }
  return {
    canImport: canImportRecipes(actor),
    preview,
    imports: { ...list, items: list.items.map((i) => ({ ...i, createdAt: showInstant(i.createdAt, timeZone, now) })) },
  };
}

type Failure = FormProblem & { intent: (typeof RECIPES_INTENTS)[number] };

export async function action(args: ActionFunctionArgs): FormAnswer<Failure> {
  const actor = await actorHere(args, "WRITE_IMPORTS");
  const { db, env } = args.context;
  // The form gate (app/http/form-post.server.ts) bounded the body: it is read here whole.
  const formData = await args.request.formData();
  const intent = intentOf(formData, RECIPES_INTENTS);
  const form = Object.fromEntries([...formData].filter(([, v]) => typeof v === "string"));
  switch (intent) {
    case "upload": {
      const file = formData.get("file");
      if (!(file instanceof File) || (file.size === 0 && file.name === "")) {
        return data({ intent, formError: null, fieldErrors: { file: RECIPES_FORM_MESSAGES.file } }, { status: 400 });
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      const result = await orOutage(uploadRecipes(db, env.FILES, actor, { fileName: file.name, bytes }));
      if (!result.ok) return refused(result, { intent }, { fields: { file_refused: "file" }, status: 400 });
      return done(
        `${RECIPES_PATH}?job=${result.jobId}#preview-title`,
        "File read",
        "Review what it changes below, then apply it or discard it.",
      );
    }
    case "apply": {
      const parsed = RecipesApplyForm.safeParse(form);
      if (!parsed.success) return invalid(parsed.error, { intent });
      const result = await orOutage(applyRecipes(db, env.FILES, actor, parsed.data));
      if (!result.ok) return refused(result, { intent });
      const { changes, services } = result;
      return done(
        `${RECIPES_PATH}?job=${parsed.data.jobId}`,
        "Recipes imported",
        `${changes} ${changes === 1 ? "change" : "changes"} to ${services} ${services === 1 ? "service" : "services"}.`,
      );
    }
    case "discard": {
      const parsed = RecipesDiscardForm.safeParse(form);
      if (!parsed.success) return invalid(parsed.error, { intent });
      const result = await orOutage(discardRecipes(db, env.FILES, actor, parsed.data.jobId));
      if (!result.ok) return refused(result, { intent });
      return done(RECIPES_PATH, "Upload discarded", `${result.fileName} was discarded; no recipe was changed.`);
    }
  }
}

export default function RecipesImportScreen() {
  const { canImport, preview, imports } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() ?? null;
  const uploadFailure = failure?.intent === "upload" ? failure : null;
  const previewError = failure && failure.intent !== "upload" ? failure.formError : null;
  const pageLink = (pages: { rows?: number; services?: number }) => {
    const params = new URLSearchParams({ job: preview?.job.id ?? "" });
    if (pages.rows) params.set("rows", String(pages.rows));
    if (pages.services) params.set("services", String(pages.services));
    return `${RECIPES_PATH}?${params}`;
  };
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div>
        <h1 className="font-semibold text-2xl">Recipes Import</h1>
        <p className="text-slate-600 text-sm">
          Set what each service uses from a spreadsheet: a preview shows every change before anything is saved, and the
          whole file is applied at once or not at all.
        </p>
      </div>
      <UploadCard canImport={canImport} error={uploadFailure?.formError} fieldError={uploadFailure?.fieldErrors.file} />
      {preview && <PreviewCard preview={preview} canImport={canImport} error={previewError} pageLink={pageLink} />}
      <ImportsTable {...imports} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
