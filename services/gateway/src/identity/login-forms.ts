/**
 * Reading the bodies of the login routes: pure functions, so the ecosystem's validation texts and
 * their order are pinned by unit tests.
 */

export type FormResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

type JsonObject = Readonly<Record<string, unknown>>;

/** The body as a JSON object; undefined for anything else (bad JSON, an array, a scalar, nothing). */
export function parseJsonObject(text: unknown): JsonObject | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as JsonObject)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A field as the GMS controllers read it (Jackson `get(name).asText()`): strings as they are, numbers
 * and booleans as text; absent, null, objects and arrays count as missing.
 */
export function gmsField(body: JsonObject, name: string): string | undefined {
  const value = body[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A field as the frontend reads it (`textValue()`): only a JSON string is text. */
export function textValue(body: JsonObject, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}

/** Absent, empty or whitespace only (commons-lang StringUtils.isBlank). */
export function isBlank(value: string | undefined): value is undefined | '' {
  return value === undefined || value.trim() === '';
}

/** The HTML5 address syntax the frontend's email validator applies (auth.native.signUp.enforceValidEmail). */
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export function isValidEmail(email: string): boolean {
  return EMAIL.test(email);
}

const invalid = (message: string): FormResult<never> => ({ ok: false, message });

export interface LogInForm {
  readonly username: string;
  /** May be empty: an empty password simply does not match. */
  readonly password: string;
}

export function readLogInForm(body: JsonObject): FormResult<LogInForm> {
  const username = textValue(body, 'username');
  if (isBlank(username)) return invalid('User name must not be empty.');
  return { ok: true, value: { username, password: textValue(body, 'password') ?? '' } };
}

export interface SignUpForm {
  readonly fullName: string;
  /** Trimmed: it is also the user's id. */
  readonly email: string;
  readonly password: string;
  readonly inviteToken: string;
  readonly title?: string;
}

/** Checks in the frontend's order; a malformed email gets the same text as a missing one, as there. */
export function readSignUpForm(body: JsonObject): FormResult<SignUpForm> {
  const fullName = textValue(body, 'fullName');
  const email = textValue(body, 'email');
  const password = textValue(body, 'password');
  const inviteToken = textValue(body, 'inviteToken');
  const title = textValue(body, 'title');
  if (isBlank(fullName)) return invalid('Full name must not be empty.');
  if (isBlank(email) || !isValidEmail(email)) return invalid('Email must not be empty.');
  if (isBlank(password)) return invalid('Password must not be empty.');
  if (isBlank(inviteToken)) return invalid('Invite token must not be empty.');
  return {
    ok: true,
    value: { fullName, email: email.trim(), password, inviteToken, ...(isBlank(title) ? {} : { title }) },
  };
}

export interface ResetForm {
  /** Trimmed: it is the user's id. */
  readonly email: string;
  readonly password: string;
  readonly resetToken: string;
}

export function readResetForm(body: JsonObject): FormResult<ResetForm> {
  const email = textValue(body, 'email');
  const password = textValue(body, 'password');
  const resetToken = textValue(body, 'resetToken');
  if (isBlank(email)) return invalid('Email must not be empty.');
  if (isBlank(password)) return invalid('Password must not be empty.');
  if (isBlank(resetToken)) return invalid('Reset token must not be empty.');
  return { ok: true, value: { email: email.trim(), password, resetToken } };
}
