import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { execute } from '../api/graphql-client';
import { meQueryOptions } from '../auth/session';
import { Button } from '../design/Button';
import { Card } from '../design/Card';
import { ErrorMessage, Loading, Muted } from '../design/Status';
import { TextField } from '../design/TextField';
import { graphql } from '../gql';
import type { AccessTokenDuration } from '../gql/graphql';
import styles from './TokensPage.module.css';

const TokensQuery = graphql(`
  query listAccessTokens($input: ListAccessTokenInput!) {
    listAccessTokens(input: $input) {
      total
      tokens {
        urn
        id
        name
        description
        createdAt
        expiresAt
      }
    }
  }
`);

const CreateTokenMutation = graphql(`
  mutation createAccessToken($input: CreateAccessTokenInput!) {
    createAccessToken(input: $input) {
      accessToken
      metadata {
        id
      }
    }
  }
`);

const RevokeTokenMutation = graphql(`
  mutation revokeAccessToken($tokenId: String!) {
    revokeAccessToken(tokenId: $tokenId)
  }
`);

const DURATIONS: readonly { value: AccessTokenDuration; label: string }[] = [
  { value: 'ONE_HOUR', label: '1 hour' },
  { value: 'ONE_DAY', label: '1 day' },
  { value: 'ONE_MONTH', label: '1 month' },
  { value: 'THREE_MONTHS', label: '3 months' },
  { value: 'SIX_MONTHS', label: '6 months' },
  { value: 'ONE_YEAR', label: '1 year' },
  { value: 'NO_EXPIRY', label: 'Never' },
];

/** How often the list is asked again while a change has yet to show in it. */
const SETTLE_POLL_MS = 1000;
/** How long a change may take to show before the list is left as it is. */
const SETTLE_MS = 30_000;

const when = (millis: number | null | undefined) =>
  millis === null || millis === undefined ? 'Never' : new Date(millis).toLocaleString();

/**
 * The signed-in user's personal access tokens: create one (its value is shown once, to copy, and never
 * again), list them, revoke one.
 */
export function TokensPage() {
  const me = useQuery(meQueryOptions);
  const user = me.data?.me?.corpUser;
  const mayCreate = me.data?.me?.platformPrivileges.generatePersonalAccessTokens === true;
  const queryClient = useQueryClient();
  const queryKey = ['accessTokens', user?.urn];
  // The list is a search: a token just made or revoked shows there once indexed, so the list is asked
  // again each second until it does, for SETTLE_MS at most, rather than left stale.
  const [settling, setSettling] = useState<{ id: string; listed: boolean; until: number } | undefined>();
  const tokens = useQuery({
    queryKey,
    enabled: user !== undefined,
    refetchInterval: (query) => {
      if (settling === undefined || Date.now() > settling.until) return false;
      const listed = query.state.data?.listAccessTokens.tokens.some((t) => t.id === settling.id) === true;
      return listed === settling.listed ? false : SETTLE_POLL_MS;
    },
    queryFn: () =>
      execute(TokensQuery, {
        input: { start: 0, count: 100, filters: [{ field: 'ownerUrn', values: [user!.urn] }] },
      }),
  });
  const [name, setName] = useState('');
  const [duration, setDuration] = useState<AccessTokenDuration>('ONE_MONTH');
  const [created, setCreated] = useState<string | undefined>();
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: () =>
      execute(CreateTokenMutation, {
        input: { type: 'PERSONAL', actorUrn: user!.urn, name: name.trim(), duration },
      }),
    onSuccess: async (data) => {
      const id = data.createAccessToken?.metadata?.id;
      if (id !== undefined) setSettling({ id, listed: true, until: Date.now() + SETTLE_MS });
      setCreated(data.createAccessToken?.accessToken);
      setCopied(false);
      setName('');
      await queryClient.invalidateQueries({ queryKey });
    },
  });
  const revoke = useMutation({
    mutationFn: (tokenId: string) => execute(RevokeTokenMutation, { tokenId }),
    onSuccess: (_data, tokenId) => {
      setSettling({ id: tokenId, listed: false, until: Date.now() + SETTLE_MS });
      return queryClient.invalidateQueries({ queryKey });
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() !== '') create.mutate();
  };
  const copy = async () => {
    if (created === undefined) return;
    await navigator.clipboard.writeText(created);
    setCopied(true);
  };

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>Access tokens</h1>
      {mayCreate ? (
        <Card title="New token">
          <form className={styles.form} onSubmit={onSubmit}>
            <TextField label="Name" value={name} required onChange={(event) => setName(event.target.value)} />
            <label className={styles.select}>
              Expires after
              <select
                value={duration}
                onChange={(event) => setDuration(event.target.value as AccessTokenDuration)}
              >
                {DURATIONS.map((d) => (
                  <option key={d.value} value={d.value}>
                    {d.label}
                  </option>
                ))}
              </select>
            </label>
            <Button type="submit" variant="primary" disabled={create.isPending || name.trim() === ''}>
              Create token
            </Button>
          </form>
          {create.error ? <ErrorMessage error={create.error} /> : null}
          {created !== undefined ? (
            <div className={styles.created} role="status">
              <p>Copy the token now: it is not shown again.</p>
              <code className={styles.token} aria-label="New token">
                {created}
              </code>
              <Button size="small" onClick={() => void copy()}>
                {copied ? 'Copied' : 'Copy token'}
              </Button>
            </div>
          ) : null}
        </Card>
      ) : (
        <Muted>Creating tokens needs the Generate Personal Access Tokens privilege.</Muted>
      )}
      <Card title="Your tokens">
        {tokens.isPending ? <Loading what="tokens" /> : null}
        {tokens.error ? <ErrorMessage error={tokens.error} /> : null}
        {revoke.error ? <ErrorMessage error={revoke.error} /> : null}
        {tokens.data && tokens.data.listAccessTokens.tokens.length === 0 ? <Muted>No tokens.</Muted> : null}
        {tokens.data && tokens.data.listAccessTokens.tokens.length > 0 ? (
          <table className={styles.table}>
            <caption className="visually-hidden">Your access tokens</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.listAccessTokens.tokens.map((token) => (
                <tr key={token.urn}>
                  <th scope="row">{token.name}</th>
                  <td>{when(token.createdAt)}</td>
                  <td>{when(token.expiresAt)}</td>
                  <td>
                    <Button
                      size="small"
                      onClick={() => revoke.mutate(token.id)}
                      aria-label={`Revoke token ${token.name}`}
                      disabled={revoke.isPending}
                    >
                      Revoke
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </Card>
    </div>
  );
}
