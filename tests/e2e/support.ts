import { expect, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";

/** Where the e2e global setup listens for "stop/start the database" (see global-setup.ts). */
export function controlPort(appPort: number): number {
  return appPort + 7;
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Settled: either signed in (off the login screen) or refused with a message.
  await Promise.race([
    page.waitForURL((url) => url.pathname !== "/login"),
    page.getByRole("alert").first().waitFor(),
    page
      .getByText(/^Enter your/)
      .first()
      .waitFor(),
  ]);
}

export async function expectSignedInAs(page: Page, name: string) {
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("signed-in-user")).toHaveText(name);
}
