import { Chip } from '../design/Chip';
import { Markdown } from './Markdown';
import { readableFieldPath, tagsOf, termsOf } from './labels';
import type { GetDatasetQuery } from '../gql/graphql';
import styles from './SchemaTable.module.css';

type Dataset = NonNullable<GetDatasetQuery['dataset']>;

/** The dataset's columns: path, type, description (the catalog's edit first), tags and terms. */
export function SchemaTable({ dataset }: { dataset: Dataset }) {
  const fields = dataset.schemaMetadata?.fields ?? [];
  const edited = new Map(
    (dataset.editableSchemaMetadata?.editableSchemaFieldInfo ?? []).map((info) => [info.fieldPath, info]),
  );
  if (fields.length === 0) return <p>No schema.</p>;
  return (
    <div className={styles.scroll}>
      <table className={styles.table}>
        <caption className="visually-hidden">Schema fields</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
            <th scope="col">Tags and terms</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => {
            const edit = edited.get(field.fieldPath);
            const description = edit?.description || field.description;
            const tags = tagsOf(field.tags, edit?.globalTags);
            const terms = termsOf(field.glossaryTerms, edit?.glossaryTerms);
            return (
              <tr key={field.fieldPath}>
                <th scope="row" className={styles.path}>
                  <code>{readableFieldPath(field.fieldPath)}</code>
                  {field.nullable ? null : <span className={styles.required}> not null</span>}
                </th>
                <td>
                  <span className={styles.type}>{field.nativeDataType || field.type}</span>
                </td>
                <td>{description ? <Markdown source={description} /> : null}</td>
                <td>
                  <div className={styles.labels}>
                    {tags.map((t) => (
                      <Chip key={t.urn} color={t.color}>
                        {t.name}
                      </Chip>
                    ))}
                    {terms.map((t) => (
                      <Chip key={t.urn}>{t.name}</Chip>
                    ))}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
