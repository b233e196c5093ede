/// <reference types="vite/client" />

/** Version of apps/web, injected at build time by vite.config.ts. */
declare const __APP_VERSION__: string;
/** ISO time the bundle was built, injected by vite.config.ts. */
declare const __BUILD_TIME__: string;
