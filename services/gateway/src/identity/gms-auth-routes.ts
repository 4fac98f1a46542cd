import express, { type Request, type Response, type Router } from 'express';
import { requestContextOf } from '../auth/request-context.js';
import { bodyErrors, bodyObjectOf, guarded, rawBody, sendJson, type AuthRouterDeps } from './auth-http.js';
import { corpUserUrn } from '../application/identity-tokens.js';
import { gmsField } from './login-forms.js';
import { throttled } from './login-routes.js';
import { isNativeUserError } from '../application/native-user-errors.js';

/** The ecosystem's text when a caller other than the system client asks for a session token. */
export const NOT_SYSTEM_CLIENT_MESSAGE = 'Unauthorized to perform this action.';
/** The header the frontend names the kind of login with (passwordLogin, signUpLinkLogin, …). */
export const LOGIN_SOURCE_HEADER = 'X-DataHubLoginSource';

/** Reads the named fields; undefined (→ 400 with no body) when the body is not JSON or one is missing. */
function fieldsOf<K extends string>(req: Request, names: readonly K[]): Record<K, string> | undefined {
  const body = bodyObjectOf(req);
  if (body === undefined) return undefined;
  const fields = {} as Record<K, string>;
  for (const name of names) {
    const value = gmsField(body, name);
    if (value === undefined) return undefined;
    fields[name] = value;
  }
  return fields;
}

const badRequest = (res: Response) => void res.status(400).end();
const serverError = (res: Response) => void res.status(500).end();

/**
 * The GMS `/auth/*` endpoints the frontend and the SDK call (AuthServiceController). Mounted behind
 * the authentication middleware: every caller is authenticated; only the session-token endpoint is
 * reserved to the system client, as in the ecosystem. Paths are absolute: mount with `app.use(router)`.
 */
export function gmsAuthRouter(deps: AuthRouterDeps): Router {
  const { sessions, logger } = deps;
  const { users } = sessions;
  const router = express.Router();
  const body = rawBody(deps.maxBodyBytes);
  const route = (what: string, handler: (req: Request, res: Response) => Promise<void>) =>
    guarded(logger, what, handler, serverError);

  router.post(
    '/auth/generateSessionTokenForUser',
    body,
    route('generateSessionTokenForUser', async (req, res) => {
      const fields = fieldsOf(req, ['userId']);
      if (fields === undefined) return badRequest(res);
      if (!requestContextOf(res).authentication.isSystem) {
        sendJson(res, 401, {
          status: 401,
          error: 'Unauthorized',
          message: NOT_SYSTEM_CLIENT_MESSAGE,
          path: req.path,
        });
        return;
      }
      const session = await sessions.open(
        requestContextOf(res).origin,
        fields.userId,
        req.get(LOGIN_SOURCE_HEADER),
      );
      if (!session.ok) {
        sendJson(res, 403, { loginDenialReason: session.denial });
        return;
      }
      const { accessToken } = session;
      sendJson(res, 200, { accessToken });
    }),
  );

  router.post(
    '/auth/signUp',
    body,
    route('signUp', async (req, res) => {
      const fields = fieldsOf(req, ['userUrn', 'fullName', 'email', 'password', 'inviteToken']);
      if (fields === undefined) return badRequest(res);
      // The system client and UNKNOWN are a 400 before anything else; other built-in users fail below.
      if (
        fields.userUrn === corpUserUrn(sessions.settings.systemClientId) ||
        fields.userUrn === 'urn:li:corpuser:UNKNOWN'
      ) {
        return badRequest(res);
      }
      const title = gmsField(bodyObjectOf(req) ?? {}, 'title');
      try {
        await users.signUp(
          { ...fields, ...(title === undefined ? {} : { title }) },
          requestContextOf(res).origin,
        );
      } catch (error) {
        if (isNativeUserError(error, 'INVALID_INVITE_TOKEN', 'INVALID_USER_URN')) return badRequest(res);
        // Exists / reserved: the ecosystem answers 500 with no body (the cause is only logged).
        if (isNativeUserError(error)) {
          logger.warn({ userUrn: fields.userUrn, reason: error.message }, 'sign-up refused');
          return serverError(res);
        }
        throw error;
      }
      sendJson(res, 200, { isNativeUserCreated: true });
    }),
  );

  router.post(
    '/auth/resetNativeUserCredentials',
    body,
    route('resetNativeUserCredentials', async (req, res) => {
      const fields = fieldsOf(req, ['userUrn', 'password', 'resetToken']);
      if (fields === undefined) return badRequest(res);
      try {
        await users.resetCredentials(fields, requestContextOf(res).origin);
      } catch (error) {
        // Every refusal is a 500 with no body in the ecosystem; the reason goes to the log only.
        if (isNativeUserError(error)) {
          logger.warn({ userUrn: fields.userUrn, reason: error.message }, 'credential reset refused');
          return serverError(res);
        }
        throw error;
      }
      sendJson(res, 200, { areNativeUserCredentialsReset: true });
    }),
  );

  router.post(
    '/auth/verifyNativeUserCredentials',
    body,
    route('verifyNativeUserCredentials', async (req, res) => {
      const fields = fieldsOf(req, ['userUrn', 'password']);
      if (fields === undefined) return badRequest(res);
      // Any authenticated caller may ask, so it is a password oracle: throttled like POST /logIn. The
      // system client (the ecosystem's frontend, on behalf of every browser) per user only.
      const context = requestContextOf(res);
      const attempt = {
        user: fields.userUrn,
        ...(context.authentication.isSystem ? {} : { address: context.origin.sourceIp }),
      };
      if (!throttled(res, sessions.throttle, attempt)) return;
      const check = await users.verifyCredentials(fields.userUrn, fields.password);
      if (check.matches && check.denialReason === undefined) sessions.throttle.succeeded(attempt);
      else sessions.throttle.failed(attempt);
      if (check.denialReason !== undefined) {
        await sessions.failedLogin(context.origin, attempt, {
          loginSource: 'passwordLogin',
          loginDenialReason: check.denialReason,
        });
      }
      sendJson(res, 200, {
        doesPasswordMatch: check.matches,
        ...(check.denialReason === undefined ? {} : { loginDenialReason: check.denialReason }),
      });
    }),
  );

  // No SSO here: the ecosystem's answer when no SSO settings are stored.
  router.post('/auth/getSsoSettings', (_req, res) => void res.status(404).end());

  router.use(bodyErrors);
  return router;
}
