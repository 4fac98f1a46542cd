import { useQuery } from '@tanstack/react-query';
import { Link, Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { Button } from '../design/Button';
import { Icon } from '../design/Icon';
import { displayNameOf, meQueryOptions, signOut } from '../auth/session';
import { SearchBox, SEARCH_BOX_ID } from '../search/SearchBox';
import styles from './AppShell.module.css';

/** Whether a key press is typing into a field (where `/` is a character, not the search shortcut). */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** The frame of every signed-in page: a skip link, the header with search and the user, the page. */
export function AppShell() {
  const me = useQuery(meQueryOptions);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target))
        return;
      event.preventDefault();
      document.getElementById(SEARCH_BOX_ID)?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  const user = me.data?.me?.corpUser;
  return (
    <>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      <header className={styles.header}>
        <Link to="/" className={styles.brand}>
          <Icon name="table" size={22} />
          Catalog
        </Link>
        <SearchBox />
        <div className={styles.user}>
          {user ? <span className={styles.userName}>{displayNameOf(user)}</span> : null}
          <Link to="/settings/tokens" className={styles.navLink}>
            Access tokens
          </Link>
          <Button variant="ghost" onClick={signOut}>
            <Icon name="logout" />
            Sign out
          </Button>
        </div>
      </header>
      <main id="main" className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
