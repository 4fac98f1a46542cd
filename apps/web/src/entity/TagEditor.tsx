import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { execute } from '../api/graphql-client';
import { meQueryOptions } from '../auth/session';
import { Button } from '../design/Button';
import { Chip } from '../design/Chip';
import { Icon } from '../design/Icon';
import { ErrorMessage } from '../design/Status';
import { AddTagMutation, CreateTagMutation, RemoveTagMutation, TagSearchQuery } from './dataset-query';
import type { Label } from './labels';
import styles from './TagEditor.module.css';

/**
 * An entity's tags; with `canEdit`, each has a remove button and a field adds one: an existing tag by
 * its name, or (for a user who may create tags) a new one. Each change is the catalog's own mutation,
 * and the entity is read again after it.
 */
export function TagEditor({
  urn,
  tags,
  canEdit,
  queryKey,
}: {
  urn: string;
  tags: readonly Label[];
  canEdit: boolean;
  queryKey: readonly unknown[];
}) {
  const queryClient = useQueryClient();
  const me = useQuery(meQueryOptions);
  const mayCreate =
    me.data?.me?.platformPrivileges.createTags === true ||
    me.data?.me?.platformPrivileges.manageTags === true;
  const [text, setText] = useState('');
  const listId = useId();
  const suggestions = useQuery({
    queryKey: ['tagSearch', text.trim()],
    enabled: canEdit && text.trim().length > 0,
    queryFn: () =>
      execute(TagSearchQuery, { input: { types: ['TAG'], query: text.trim(), start: 0, count: 10 } }),
  });
  const known = (suggestions.data?.searchAcrossEntities?.searchResults ?? []).map(({ entity }) => ({
    urn: entity.urn,
    name:
      ('properties' in entity && entity.properties?.name) || ('name' in entity ? entity.name : entity.urn),
  }));

  const refresh = () => queryClient.invalidateQueries({ queryKey });
  const add = useMutation({
    mutationFn: async (name: string) => {
      let tagUrn = known.find((t) => t.name.toLowerCase() === name.toLowerCase())?.urn;
      if (tagUrn === undefined) {
        if (!mayCreate)
          throw new Error(
            `There is no tag named “${name}”, and creating tags needs the Create Tags privilege.`,
          );
        tagUrn =
          (await execute(CreateTagMutation, { input: { id: name, name } })).createTag ?? `urn:li:tag:${name}`;
      }
      await execute(AddTagMutation, { input: { resourceUrn: urn, tagUrn } });
    },
    onSuccess: async () => {
      setText('');
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (tagUrn: string) => execute(RemoveTagMutation, { input: { resourceUrn: urn, tagUrn } }),
    onSuccess: refresh,
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const name = text.trim();
    if (name !== '') add.mutate(name);
  };

  return (
    <div className={styles.editor}>
      <ul className={styles.tags} aria-label="Tags">
        {tags.length === 0 ? <li className={styles.none}>No tags</li> : null}
        {tags.map((tag) => (
          <li key={tag.urn}>
            <Chip
              color={tag.color}
              {...(canEdit
                ? { onRemove: () => remove.mutate(tag.urn), removeLabel: `Remove tag ${tag.name}` }
                : {})}
            >
              {tag.name}
            </Chip>
          </li>
        ))}
      </ul>
      {canEdit ? (
        <form className={styles.add} onSubmit={onSubmit}>
          <label htmlFor={`${listId}-input`} className="visually-hidden">
            Tag to add
          </label>
          <input
            id={`${listId}-input`}
            className={styles.input}
            list={listId}
            placeholder="Add a tag"
            autoComplete="off"
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
          <datalist id={listId}>
            {known.map((t) => (
              <option key={t.urn} value={t.name} />
            ))}
          </datalist>
          <Button type="submit" size="small" disabled={add.isPending || text.trim() === ''}>
            <Icon name="plus" size={14} />
            Add tag
          </Button>
        </form>
      ) : null}
      {add.error ? <ErrorMessage error={add.error} /> : null}
      {remove.error ? <ErrorMessage error={remove.error} /> : null}
    </div>
  );
}
