import express, { type Request, type Response, type Router } from 'express';
import { cookieValue, SESSION_COOKIE } from '../auth/authentication-middleware.js';
import { requestContextOf } from '../auth/request-context.js';
import { bodyErrors, bodyObjectOf, guarded, rawBody, sendJson, type AuthRouterDeps } from './auth-http.js';
import { corpUserUrn } from '../application/identity-tokens.js';
import type { Session } from '../application/sessions.js';
import { readLogInForm, readResetForm, readSignUpForm } from './login-forms.js';
import { throttledMessage, type LoginAttempt, type LoginThrottle } from '../auth/login-throttle.js';
import { isNativeUserError, NATIVE_USER_MESSAGES } from '../application/native-user-errors.js';
import { clearedSessionCookies, sessionCookies } from './session-cookies.js';

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid Credentials';
/** The frontend's GUEST_AUTHENTICATION_PATH default: /authenticate?redirect_uri=/public logs in as guest. */
export const GUEST_AUTHENTICATION_PATH = '/public';
/** Where a logout sends the browser (the frontend's login page). */
export const LOGIN_PAGE = '/login';
export const LOGGED_OUT_MESSAGE =
  'Not logged in. Log in with POST /logIn and a JSON body {"username": "…", "password": "…"}.';

const message = (res: Response, status: number, text: string) => sendJson(res, status, { message: text });
const unexpected = (res: Response) => message(res, 500, 'An unexpected error occurred.');

/**
 * The frontend's login routes (AuthenticationController), served without authentication. A login
 * answers as the frontend does (status, cookies) and also returns the session token in the body, so a
 * script can log in without a browser. Paths are absolute: mount with `app.use(router)`.
 */
export function loginRouter(deps: AuthRouterDeps): Router {
  const { sessions, logger } = deps;
  const { users } = sessions;
  const router = express.Router();
  const body = rawBody(deps.maxBodyBytes);
  const route = (what: string, handler: (req: Request, res: Response) => Promise<void>) =>
    guarded(logger, what, handler, unexpected);

  /** Issues a session token and sets the login cookies, unless the user may not have a session. */
  async function openSession(
    req: Request,
    res: Response,
    userId: string,
    loginSource: string,
  ): Promise<Session> {
    const session = await sessions.open(requestContextOf(res).origin, userId, loginSource);
    if (!session.ok) return session;
    const options = { maxAgeMs: sessions.settings.sessionTokenDurationMs, secure: req.secure };
    for (const cookie of sessionCookies(session.accessToken, session.actor, options))
      res.cookie(cookie.name, cookie.value, cookie.options);
    return session;
  }

  /** 200 with the token, or 403 naming why the user (whose credentials were fine) gets no session. */
  function answerSession(res: Response, session: Session): void {
    if (session.ok) sendJson(res, 200, { accessToken: session.accessToken, actor: session.actor });
    else sendJson(res, 403, { message: 'This user may not log in.', loginDenialReason: session.denial });
  }

  /**
   * The body of a form post. JSON only, as the frontend reads it: a cross-site page cannot send that
   * content type without a CORS preflight, so it cannot log a browser into someone else's account.
   */
  function formOf(req: Request, res: Response): Readonly<Record<string, unknown>> | undefined {
    if (!req.is('application/json')) {
      message(res, 400, 'The request body must be JSON (Content-Type: application/json).');
      return undefined;
    }
    return bodyObjectOf(req) ?? {};
  }

  router.post(
    '/logIn',
    body,
    route('logIn', async (req, res) => {
      const form = formOf(req, res);
      if (form === undefined) return;
      const login = readLogInForm(form);
      if (!login.ok) return message(res, 400, login.message);
      const userUrn = corpUserUrn(login.value.username);
      const attempt = { user: userUrn, address: requestContextOf(res).origin.sourceIp };
      if (!throttled(res, sessions.throttle, attempt)) return;
      const check = await users.verifyCredentials(userUrn, login.value.password);
      // An ineligible user with the right password gets the same answer as a wrong password.
      if (!check.matches || check.denialReason !== undefined) {
        sessions.throttle.failed(attempt);
        await sessions.failedLogin(requestContextOf(res).origin, attempt, {
          loginSource: 'passwordLogin',
          loginDenialReason: check.denialReason ?? 'INVALID_CREDENTIALS',
        });
        return message(res, 400, INVALID_CREDENTIALS_MESSAGE);
      }
      const session = await openSession(req, res, login.value.username, 'passwordLogin');
      if (!session.ok) {
        sessions.throttle.failed(attempt);
        return message(res, 400, INVALID_CREDENTIALS_MESSAGE);
      }
      sessions.throttle.succeeded(attempt);
      answerSession(res, session);
    }),
  );

  router.post(
    '/signUp',
    body,
    route('signUp', async (req, res) => {
      const form = formOf(req, res);
      if (form === undefined) return;
      const signUp = readSignUpForm(form);
      if (!signUp.ok) return message(res, 400, signUp.message);
      const { email, ...rest } = signUp.value;
      try {
        // The email is the user's id.
        await users.signUp({ ...rest, email, userUrn: corpUserUrn(email) }, requestContextOf(res).origin);
      } catch (error) {
        // Refusals are the caller's to fix (bad invite, taken name): a 400 with the reason, which the
        // UI shows, where the frontend would surface its GMS call's failure as a bare 500.
        if (isNativeUserError(error)) return message(res, 400, error.message);
        throw error;
      }
      answerSession(res, await openSession(req, res, email, 'signUpLinkLogin'));
    }),
  );

  router.post(
    '/resetNativeUserCredentials',
    body,
    route('resetNativeUserCredentials', async (req, res) => {
      const form = formOf(req, res);
      if (form === undefined) return;
      const reset = readResetForm(form);
      if (!reset.ok) return message(res, 400, reset.message);
      const { email, password, resetToken } = reset.value;
      try {
        await users.resetCredentials(
          { userUrn: corpUserUrn(email), password, resetToken },
          requestContextOf(res).origin,
        );
      } catch (error) {
        if (isNativeUserError(error)) {
          // Unknown user, no token and wrong token read alike: this public route must not tell which
          // users exist. "Expired" is only reached with the right token, so it gives nothing away.
          const expired = error.failure === 'RESET_TOKEN_EXPIRED';
          return message(
            res,
            400,
            NATIVE_USER_MESSAGES[expired ? 'RESET_TOKEN_EXPIRED' : 'INVALID_RESET_TOKEN'],
          );
        }
        throw error;
      }
      answerSession(res, await openSession(req, res, email, 'passwordReset'));
    }),
  );

  router.get(
    '/logOut',
    route('logOut', async (req, res) => {
      // Revoked first: if that fails, the answer is an error and the browser keeps a session it knows of.
      await revokeSessionOf(req, res);
      for (const cookie of clearedSessionCookies(req.secure)) res.clearCookie(cookie.name, cookie.options);
      res.redirect(302, LOGIN_PAGE);
    }),
  );

  /**
   * The session token the request carries (cookie, or Bearer), revoked for good unless it is not a
   * valid session token of this service: only a holder of a real session can cause a store write.
   */
  async function revokeSessionOf(req: Request, res: Response): Promise<void> {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
    const tokens = [cookieValue(req.get('cookie'), SESSION_COOKIE), bearer];
    const revoked = await sessions.revoke(tokens.filter((t): t is string => t !== undefined));
    if (revoked > 0)
      logger.info({ actorUrn: requestContextOf(res).authentication.actorUrn }, 'session revoked by logout');
  }

  // Where a logout lands: the ecosystem's login page path. A UI served in front of the catalog on the
  // same origin answers it; the catalog alone says how to log in rather than answering 404.
  router.get(LOGIN_PAGE, (_req, res) => {
    sendJson(res, 200, { message: LOGGED_OUT_MESSAGE });
  });

  router.get(
    '/authenticate',
    route('authenticate', async (req, res) => {
      const redirectUri = typeof req.query['redirect_uri'] === 'string' ? req.query['redirect_uri'] : '/';
      // Already logged in (the middleware accepted the session cookie): straight on.
      if (requestContextOf(res).authentication.method === 'session-token') {
        return res.redirect(302, localPath(redirectUri));
      }
      if (sessions.settings.guest.enabled && redirectUri === GUEST_AUTHENTICATION_PATH) {
        const session = await openSession(req, res, sessions.settings.guest.user, 'guestLogin');
        if (!session.ok) return answerSession(res, session);
        // The guest path is not a page: the frontend sends the new guest to the home page.
        return res.redirect(302, '/');
      }
      message(res, 401, 'Not logged in: log in with POST /logIn.');
    }),
  );

  router.use(bodyErrors);
  return router;
}

/**
 * Whether the attempt may check a password now; if not, answers 429 with `Retry-After` (seconds) and
 * a message saying when to try again.
 */
export function throttled(
  res: Response,
  throttle: Pick<LoginThrottle, 'check'>,
  attempt: LoginAttempt,
): boolean {
  const decision = throttle.check(attempt);
  if (decision.allowed) return true;
  res.setHeader('Retry-After', String(decision.retryAfterSeconds));
  sendJson(res, 429, { message: throttledMessage(decision.retryAfterSeconds) });
  return false;
}

/** A redirect target on this site only: a path, never `//host` or a URL with a scheme. */
export function localPath(uri: string): string {
  return uri.startsWith('/') && !uri.startsWith('//') && !uri.startsWith('/\\') ? uri : '/';
}
