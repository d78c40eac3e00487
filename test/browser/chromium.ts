/**
 * Headless Chromium for the browser tests: Debian's /usr/bin/chromium driven by playwright-core (Playwright's own
 * browser download does not work on our machines). CI installs it (.ci/run); there a missing browser is a failure.
 * On a developer machine without it the browser tests are skipped with a visible reason.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.STACKRANK_CHROMIUM || '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);
const inCI = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';

export const MISSING_CHROMIUM =
  `${CHROMIUM} is missing: install Debian's Chromium (apt-get update && apt-get install -y chromium), ` +
  'or point STACKRANK_CHROMIUM at a Chromium binary';

/**
 * True when the browser tests should be skipped (no Chromium, not CI); prints why. In CI a missing Chromium
 * throws, so the suite fails with the reason instead of passing without having run.
 */
export function skipWithoutChromium(what: string): boolean {
  if (chromiumAvailable) return false;
  if (inCI) throw new Error(`${what}: ${MISSING_CHROMIUM} (CI must run the browser tests)`);
  console.warn(`SKIPPED ${what}: ${MISSING_CHROMIUM}`);
  return true;
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A fresh browser profile (its own user-data-dir, so IndexedDB starts empty). */
export async function launch(): Promise<Browser> {
  const dir = mkdtempSync(join(tmpdir(), 'stackrank-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1120, height: 700 },
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
