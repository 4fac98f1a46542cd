import { Link } from '@tanstack/react-router';
import { displayNameOf } from '../auth/session';
import { Card } from '../design/Card';
import { Chip } from '../design/Chip';
import { Muted } from '../design/Status';
import { typeLabel } from './entity-links';
import type { Label } from './labels';
import styles from './EntityPage.module.css';

export interface OwnerView {
  readonly type?: string | null;
  readonly owner:
    | {
        readonly urn: string;
        readonly username: string;
        readonly properties?: { displayName?: string | null; fullName?: string | null } | null;
      }
    | {
        readonly urn: string;
        readonly name: string;
        readonly properties?: { displayName?: string | null } | null;
      };
}

/** The owners card: each owner a link to its page, with the kind of ownership. */
export function OwnersCard({ owners }: { owners: readonly OwnerView[] }) {
  return (
    <Card title="Owners">
      {owners.length === 0 ? <Muted>No owners</Muted> : null}
      <ul className={styles.plain}>
        {owners.map(({ owner, type }) => (
          <li key={owner.urn}>
            <Link to="/entity/$urn" params={{ urn: owner.urn }}>
              {'username' in owner ? displayNameOf(owner) : owner.properties?.displayName || owner.name}
            </Link>
            {type ? <span className={styles.muted}> · {typeLabel(type)}</span> : null}
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function TermsCard({ terms }: { terms: readonly Label[] }) {
  return (
    <Card title="Glossary terms">
      {terms.length === 0 ? <Muted>No terms</Muted> : null}
      <div className={styles.chips}>
        {terms.map((t) => (
          <Chip key={t.urn}>{t.name}</Chip>
        ))}
      </div>
    </Card>
  );
}

export function DomainCard({
  domain,
}: {
  domain: { urn: string; properties?: { name: string } | null } | null | undefined;
}) {
  return (
    <Card title="Domain">
      {domain ? (
        <Link to="/entity/$urn" params={{ urn: domain.urn }}>
          {domain.properties?.name ?? domain.urn}
        </Link>
      ) : (
        <Muted>No domain</Muted>
      )}
    </Card>
  );
}
