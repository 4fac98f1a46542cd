import { queryOptions } from '@tanstack/react-query';
import { execute } from '../api/graphql-client';
import { graphql } from '../gql';

export const MeQuery = graphql(`
  query getMe {
    me {
      corpUser {
        urn
        username
        properties {
          displayName
          fullName
        }
        editableProperties {
          displayName
        }
      }
      platformPrivileges {
        viewAnalytics
        generatePersonalAccessTokens
        manageTags
        createTags
      }
    }
  }
`);

/** Who is signed in; fails with UnauthenticatedError when nobody is. */
export const meQueryOptions = queryOptions({
  queryKey: ['me'],
  queryFn: () => execute(MeQuery),
  staleTime: 5 * 60_000,
  retry: false,
});

/** A user's name as people read it. */
export function displayNameOf(user: {
  username: string;
  properties?: { displayName?: string | null; fullName?: string | null } | null;
  editableProperties?: { displayName?: string | null } | null;
}): string {
  return (
    user.editableProperties?.displayName ||
    user.properties?.displayName ||
    user.properties?.fullName ||
    user.username
  );
}

/** Why a sign-in failed, in the catalog's words. */
export class SignInError extends Error {}

/** Signs in with the catalog's native login (POST /logIn); on success the session cookie is set. */
export async function signIn(username: string, password: string): Promise<void> {
  const response = await fetch('/logIn', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (response.ok) return;
  let message = `Sign-in failed (HTTP ${response.status})`;
  try {
    const body = (await response.json()) as { message?: string };
    if (typeof body.message === 'string') message = body.message;
  } catch {
    // keep the status message
  }
  throw new SignInError(message);
}

/**
 * Ends the session on the server (GET /logOut revokes the session token and clears the cookies) and
 * follows its redirect to the sign-in page with a full page load, so no state of the old session stays.
 */
export function signOut(): void {
  window.location.assign('/logOut');
}

/** A redirect target inside the app only: a path, never another site. */
export function localRedirect(target: string | undefined): string {
  if (target === undefined || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\'))
    return '/';
  return target;
}
