import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { LoginForm, safeRedirect } from "~/auth/login-form";
import { commitSessionCookie, getSessionUser } from "~/auth/session.server";
import { signIn } from "~/auth/sign-in.server";
import { fieldErrorsOf } from "~/forms/field-errors";
import { orOutage } from "~/http/outage.server";
import { Field, FormAlert } from "~/ui/form";
import { LoadingScreen } from "~/ui/loading-screen";
import { StandalonePage } from "~/ui/standalone-page";

export const meta: MetaFunction = () => [{ title: "Sign in · Clinic Inventory" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await orOutage(getSessionUser(context.env, context.db, request));
  const url = new URL(request.url);
  if (user) throw redirect(safeRedirect(url.searchParams.get("redirectTo"), url.origin));
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = Object.fromEntries(await request.formData());
  const parsed = LoginForm.safeParse(form);
  if (!parsed.success) {
    return data({ error: null, fieldErrors: fieldErrorsOf(parsed.error) }, { status: 400 });
  }
  const result = await orOutage(
    signIn(context.db, {
      ...parsed.data,
      userAgent: request.headers.get("User-Agent"),
      clientIp: request.headers.get("CF-Connecting-IP"),
    }),
  );
  if (!result.ok) return data({ error: result.message, fieldErrors: {} }, { status: result.status });
  return redirect(safeRedirect(parsed.data.redirectTo, new URL(request.url).origin), {
    headers: { "Set-Cookie": await commitSessionCookie(context.env, request, result.token) },
  });
}

export default function LoginScreen() {
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  // Signed in: the dashboard is loading behind the redirect.
  if (
    navigation.state === "loading" &&
    navigation.formAction === undefined &&
    navigation.location.pathname !== "/login"
  ) {
    return <LoadingScreen />;
  }
  const fieldErrors: Record<string, string | undefined> = result?.fieldErrors ?? {};
  return (
    <StandalonePage title="Clinic Inventory" subtitle="Sign in to your clinic">
      <FormAlert message={result?.error} />
      <Form method="post" className="mt-4 flex flex-col gap-4" noValidate>
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/"} />
        <Field label="Email" name="email" type="email" autoComplete="username" error={fieldErrors.email} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          error={fieldErrors.password}
        />
        <button
          type="submit"
          disabled={submitting}
          className="rounded-md bg-sky-700 px-4 py-2.5 font-medium text-white hover:bg-sky-800 disabled:opacity-60"
        >
          {submitting ? "Signing in…" : "Sign in"}
        </button>
      </Form>
    </StandalonePage>
  );
}
