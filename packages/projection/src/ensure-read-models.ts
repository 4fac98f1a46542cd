import { entityRegistry } from '@catalog/model';
import { indexSpecFor, type GraphIndex, type SearchIndex, type TimeseriesIndex } from '@catalog/search';

/** The read models the registry implies. */
export interface ReadModels {
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
  readonly timeseries: TimeseriesIndex;
}

/** Creates every index the registry implies (idempotent): one per searchable entity, the graph, and time-series. */
export async function ensureReadModels(models: ReadModels): Promise<void> {
  for (const entity of entityRegistry.entities()) {
    if (entity.searchable) await models.search.ensureIndex(indexSpecFor(entity));
    for (const aspect of entity.aspects.values()) {
      if (aspect.kind === 'timeseries') await models.timeseries.ensure(entity.name, aspect.name);
    }
  }
  await models.graph.ensure();
}
