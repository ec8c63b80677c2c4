import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { watchAnswers } from './answers.ts';
import { launchBrowser } from './browser.ts';
import { signIn } from './console.ts';
import { startServer, type RunningServer, type ServerOptions } from './server.ts';

export type Lang = 'zh' | 'en';
export interface Viewport {
  width: number;
  height: number;
}

export interface PageOptions {
  /** The language stored in the browser before the console first loads; without, the console's default (zh). */
  lang?: Lang;
  /** 1366×800 unless told. */
  viewport?: Viewport;
  /** Playwright's fake clock, installed before the console loads: page.clock moves time on. */
  clock?: boolean;
}

export interface ConsoleOptions extends PageOptions {
  /**
   * How the server starts (database, environment, a prepared data directory: see startServer). A function is called
   * in beforeAll, for what has to be made first (a data directory, a private web build, a shared database).
   */
  server?: ServerOptions | (() => ServerOptions | Promise<ServerOptions>);
  /** Server processes started with these options, one after the other (scale-out: two on one database). */
  servers?: number;
  /** Whether the suite drives Chromium; an API-only suite starts none. */
  browser?: boolean;
  /** Runs once the servers are up, before the first test: data put in through the API. */
  seed?: (server: RunningServer) => Promise<unknown>;
}

export interface Console {
  /** The (first) server, started in beforeAll. */
  readonly server: RunningServer;
  readonly servers: readonly RunningServer[];
  readonly browser: Browser;
  /** A page in a fresh context (no cookies, storage or cache), closed after the test; its API answers are checked. */
  newPage(options?: PageOptions): Promise<Page>;
  /** newPage, signed in through the login form. */
  signIn(account: string, password: string, options?: PageOptions): Promise<Page>;
}

/**
 * The suite's server and browser, for the describe block it is called in: the server (or servers) start in
 * beforeAll, from the fresh data directory or database startServer makes, and stop in afterAll; every page comes from
 * its own browser context, closed after its test, so the tests of a suite share the server's data and nothing else.
 *
 * Hooks a suite registers itself run around these as vitest orders hooks: beforeAll ones registered before this call
 * run before the servers start, afterAll ones registered after it run before they stop.
 */
export function useConsole(options: ConsoleOptions = {}): Console {
  const servers: RunningServer[] = [];
  let browser: Browser | null = null;
  const contexts = new Set<BrowserContext>();

  beforeAll(async () => {
    const serverOptions = typeof options.server === 'function' ? await options.server() : options.server;
    for (let i = 0; i < (options.servers ?? 1); i++) servers.push(await startServer(serverOptions));
    if (options.browser !== false) browser = await launchBrowser();
    await options.seed?.(servers[0]!);
  });
  afterEach(async () => {
    await Promise.all([...contexts].map((context) => context.close()));
    contexts.clear();
  });
  afterAll(async () => {
    await browser?.close();
    for (const server of servers) await server.stop();
  });

  const fixture: Console = {
    get server() {
      if (!servers[0]) throw new Error('the server is not started yet (it starts in beforeAll)');
      return servers[0];
    },
    get servers() {
      return servers;
    },
    get browser() {
      if (!browser) throw new Error(options.browser === false ? 'this suite has no browser' : 'no browser yet');
      return browser;
    },
    async newPage(page = {}) {
      const context = await fixture.browser.newContext({
        baseURL: fixture.server.url,
        viewport: page.viewport ?? options.viewport ?? { width: 1366, height: 800 },
        // Reduced motion: the console turns antd's animations off (hooks/use-reduced-motion.ts), so a click never
        // lands on a dialog or list still moving into place.
        reducedMotion: 'reduce',
      });
      contexts.add(context);
      context.on('close', () => contexts.delete(context));
      const lang = page.lang ?? options.lang;
      // As if the user had picked it before: the console reads it on its first load, and a pick in the page wins.
      if (lang)
        await context.addInitScript((l) => {
          try {
            if (!window.localStorage.getItem('language')) window.localStorage.setItem('language', l);
          } catch {
            // about:blank has no storage
          }
        }, lang);
      const opened = await context.newPage();
      if (page.clock ?? options.clock) await opened.clock.install();
      // Every JSON answer of the API is checked against its declared schema (support/answers.ts).
      watchAnswers(opened, fixture.server.url);
      return opened;
    },
    async signIn(account, password, page = {}) {
      const opened = await fixture.newPage(page);
      await signIn(opened, account, password);
      return opened;
    },
  };
  return fixture;
}
