import type { RequestContext } from '@catalog/auth';
import { checkProposal, type CheckedProposal } from '@catalog/model';
import { mapOpenLineageEvent } from './openlineage/event-mapping.js';
import type { OpenLineageEvent } from './openlineage/openlineage-event.js';
import type { OpenLineageSettings } from './openlineage/openlineage-settings.js';
import type { Proposals } from './proposals.js';

/** An event whose mapping gave nothing to write (the ecosystem's INGESTION_FAILED). */
export class EmptyLineageMappingError extends Error {
  constructor() {
    super('OpenLineage event mapping did not produce any metadata proposals');
    this.name = 'EmptyLineageMappingError';
  }
}

/**
 * OpenLineage events received from lineage producers (Spark, Airflow, dbt, any OpenLineage client):
 * each event is mapped to aspect writes (data flow, data job, process instance, datasets, dataset and
 * column lineage; see event-mapping.ts), checked against the aspects' schemas (a ValidationError names
 * the aspect an event cannot become), authorized as any generic write of them is (the actor needs to
 * edit, or create, every entity written: a 403 otherwise, nothing written), and produced as one
 * asynchronous batch of proposals.
 */
export class OpenLineageIngest {
  constructor(
    private readonly proposals: Proposals,
    private readonly settings: OpenLineageSettings,
  ) {}

  async receive(ctx: RequestContext, event: OpenLineageEvent): Promise<void> {
    const checked: CheckedProposal[] = mapOpenLineageEvent(event, this.settings).map((change) =>
      checkProposal({
        entityType: change.entityType,
        entityUrn: change.urn,
        changeType: change.changeType,
        aspectName: change.aspect,
        aspect: { contentType: 'application/json', value: JSON.stringify(change.value) },
      }),
    );
    if (checked.length === 0) throw new EmptyLineageMappingError();
    await this.proposals.propose(ctx, checked, { sync: false });
  }
}
