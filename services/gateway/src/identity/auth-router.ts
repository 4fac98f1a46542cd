/**
 * The HTTP side of native users: the GMS `/auth/*` endpoints (behind authentication) and the
 * frontend's login routes (without). Both routers carry absolute paths: mount each with `app.use(…)`.
 */
export { type AuthRouterDeps, JSON_CONTENT_TYPE } from './auth-http.js';
export { gmsAuthRouter, LOGIN_SOURCE_HEADER, NOT_SYSTEM_CLIENT_MESSAGE } from './gms-auth-routes.js';
export {
  GUEST_AUTHENTICATION_PATH,
  INVALID_CREDENTIALS_MESSAGE,
  localPath,
  loginRouter,
} from './login-routes.js';
