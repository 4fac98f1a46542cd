import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Button } from '../design/Button';
import { Icon } from '../design/Icon';
import { TextField } from '../design/TextField';
import { localRedirect, signIn } from './session';
import styles from './LoginPage.module.css';

/** Sign in with a native user's name and password; then back to the page that sent the user here. */
export function LoginPage() {
  const { redirect } = useSearch({ from: '/login' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(username, password);
      // Whatever was cached belonged to nobody, or to the previous user.
      queryClient.clear();
      await navigate({ href: localRedirect(redirect), replace: true });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setBusy(false);
    }
  };

  return (
    <main className={styles.page}>
      <form className={styles.form} onSubmit={onSubmit} aria-labelledby="sign-in-title">
        <div className={styles.brand}>
          <Icon name="table" size={28} />
          <span>Catalog</span>
        </div>
        <h1 id="sign-in-title" className={styles.title}>
          Sign in
        </h1>
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          required
          autoFocus
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {error ? (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        ) : null}
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </main>
  );
}
