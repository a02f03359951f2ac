/// <reference types="vite/client" />

/** Build settings (spec part 1 §1: production host names use the production backend). */
interface ImportMetaEnv {
  readonly VITE_PRODUCTION_HOSTS?: string;
  readonly VITE_PRODUCTION_API_URL?: string;
  readonly VITE_DEVELOPMENT_API_URL?: string;
}
