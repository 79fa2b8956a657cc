import { expect, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export async function expectSignedInAs(page: Page, name: string) {
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("signed-in-user")).toHaveText(name);
}
