import styles from './Status.module.css';

/** Something is loading: announced to screen readers, shown as text. */
export function Loading({ what }: { what: string }) {
  return (
    <p className={styles.muted} role="status">
      Loading {what}…
    </p>
  );
}

/** A request failed: its message, announced. */
export function ErrorMessage({ error }: { error: unknown }) {
  return (
    <p className={styles.error} role="alert">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}

export function Muted({ children }: { children: React.ReactNode }) {
  return <p className={styles.muted}>{children}</p>;
}
