/// <reference types="vite/client" />

/** Build settings (spec part 1 §1: production host names use the production backend). */
interface ImportMetaEnv {
  readonly VITE_PRODUCTION_HOSTS?: string;
  readonly VITE_PRODUCTION_API_URL?: string;
  readonly VITE_DEVELOPMENT_API_URL?: string;
}

/** ECharts' own locales (its month and day names, its aria description), UMD files its package exports without types. */
declare module 'echarts/i18n/*-obj.js' {
  import type { registerLocale } from 'echarts/core';
  const locale: Parameters<typeof registerLocale>[1];
  export default locale;
}
