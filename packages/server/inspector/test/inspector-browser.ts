import { existsSync, mkdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, which `.ci/run` installs when it is missing. */
export const chromiumPath = process.env.MEMPLANE_CHROMIUM ?? '/usr/bin/chromium';

/** Whether the browser tests can run here. */
export const chromiumAvailable = existsSync(chromiumPath);

const packageDirectory = fileURLToPath(new URL('../../', import.meta.url));

/** Screenshots of each page: test artifacts in the ignored `.tmp/`, copied into `docs/` for the README when asked. */
export const artifactDirectory = join(packageDirectory, '.tmp', 'inspector-screenshots');
const docsDirectory = join(packageDirectory, 'docs');

/** Launches headless Chromium (no sandbox: CI runs as root in a container). */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

/**
 * Writes a screenshot of the page as a test artifact; with `MEMPLANE_UPDATE_DOCS_SCREENSHOTS=1`
 * also refreshes the README's copy in `docs/`.
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(artifactDirectory, { recursive: true });
  const path = join(artifactDirectory, `inspector-${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? false });
  if (process.env.MEMPLANE_UPDATE_DOCS_SCREENSHOTS === '1') {
    mkdirSync(docsDirectory, { recursive: true });
    copyFileSync(path, join(docsDirectory, `inspector-${name}.png`));
  }
  return path;
}

/** Signs in through the form, the way a person does. */
export async function signIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Pages' }).waitFor();
}
