"""The pinned SDK's GraphQL and OpenAPI helpers against a running catalog.

usage: graphql_sdk.py <gms-url> <run-tag>
Writes datasets with the SDK's emitter, then calls get_urns_by_filter (platform, env, container and
status filters, pages smaller than the result), execute_graphql, get_related_entities, create_tag,
and removes a tag with remove_tag. Prints one JSON line with what each call returned.
"""

import json
import os
import sys
import time

from datahub.emitter.mce_builder import make_container_urn, make_dataset_urn
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.graph.client import DatahubClientConfig, DataHubGraph
from datahub.ingestion.graph.filters import RemovedStatusFilter
from datahub.metadata.schema_classes import (
    BrowsePathEntryClass,
    BrowsePathsV2Class,
    ContainerClass,
    ContainerPropertiesClass,
    DatasetPropertiesClass,
    DatasetLineageTypeClass,
    GlobalTagsClass,
    StatusClass,
    TagAssociationClass,
    UpstreamClass,
    UpstreamLineageClass,
)

GMS, RUN = sys.argv[1], sys.argv[2]
graph = DataHubGraph(DatahubClientConfig(server=GMS, token=os.environ["DATAHUB_GMS_TOKEN"]))

container = make_container_urn(f"db_{RUN}")
hive = [make_dataset_urn("hive", f"{RUN}.t{i}", "PROD") for i in range(5)]
dev = make_dataset_urn("hive", f"{RUN}.dev", "DEV")
removed = make_dataset_urn("hive", f"{RUN}.removed", "PROD")
other = make_dataset_urn("postgres", f"{RUN}.pg", "PROD")

mcps = [MetadataChangeProposalWrapper(entityUrn=container, aspect=ContainerPropertiesClass(name=f"db_{RUN}"))]
for urn in hive + [dev, removed, other]:
    mcps.append(MetadataChangeProposalWrapper(entityUrn=urn, aspect=DatasetPropertiesClass(description=f"run {RUN}")))
for urn in hive[:3]:
    mcps.append(MetadataChangeProposalWrapper(entityUrn=urn, aspect=ContainerClass(container=container)))
    mcps.append(
        MetadataChangeProposalWrapper(
            entityUrn=urn,
            aspect=BrowsePathsV2Class(path=[BrowsePathEntryClass(id=container, urn=container)]),
        )
    )
mcps.append(MetadataChangeProposalWrapper(entityUrn=removed, aspect=StatusClass(removed=True)))
mcps.append(
    MetadataChangeProposalWrapper(
        entityUrn=hive[0],
        aspect=UpstreamLineageClass(
            upstreams=[UpstreamClass(dataset=hive[1], type=DatasetLineageTypeClass.TRANSFORMED)]
        ),
    )
)
graph.emit_mcps(mcps)


def eventually(read, done, seconds=60):
    """Writes reach search and the graph through the indexer: poll until `done` holds (or time runs out,
    returning the last value read, so that the test names what never arrived)."""
    deadline = time.time() + seconds
    value = read()
    while not done(value) and time.time() < deadline:
        time.sleep(0.2)
        value = read()
    return value


eventually(
    lambda: list(graph.get_urns_by_filter(entity_types=["dataset"], query=RUN, status=RemovedStatusFilter.ALL)),
    lambda found: len(found) == len(hive) + 3,
)
eventually(
    lambda: list(graph.get_urns_by_filter(entity_types=["dataset"], container=container, query=RUN)),
    lambda found: len(found) == 3,
)
eventually(
    lambda: list(
        graph.get_urns_by_filter(entity_types=["dataset"], query=RUN, status=RemovedStatusFilter.ONLY_SOFT_DELETED)
    ),
    lambda found: len(found) == 1,
)

report = {}
report["platformEnv"] = sorted(
    graph.get_urns_by_filter(entity_types=["dataset"], platform="hive", env="PROD", query=RUN, batch_size=2)
)
report["container"] = sorted(
    graph.get_urns_by_filter(entity_types=["dataset"], container=container, query=RUN, batch_size=2)
)
report["onlyRemoved"] = sorted(
    graph.get_urns_by_filter(
        entity_types=["dataset"], query=RUN, status=RemovedStatusFilter.ONLY_SOFT_DELETED
    )
)
report["all"] = sorted(
    graph.get_urns_by_filter(entity_types=["dataset"], query=RUN, status=RemovedStatusFilter.ALL, batch_size=3)
)
report["me"] = graph.execute_graphql("query { me { corpUser { urn } } }")["me"]["corpUser"]["urn"]
related = eventually(
    lambda: list(
        graph.get_related_entities(hive[0], ["DownstreamOf"], DataHubGraph.RelationshipDirection.OUTGOING)
    ),
    lambda found: len(found) > 0,
)
report["related"] = [[r.urn, r.relationship_type] for r in related]
tag = graph.create_tag(f"sdk_{RUN}")
report["tag"] = tag
graph.execute_graphql(
    "mutation($input: TagAssociationInput!) { addTag(input: $input) }",
    variables={"input": {"tagUrn": tag, "resourceUrn": hive[4]}},
)
tags_after_add = graph.get_aspect(hive[4], GlobalTagsClass)
report["tagsAfterAdd"] = [t.tag for t in tags_after_add.tags] if tags_after_add else []
report["removeTag"] = graph.remove_tag(tag, hive[4])
tags_after_remove = graph.get_aspect(hive[4], GlobalTagsClass)
report["tagsAfterRemove"] = [t.tag for t in tags_after_remove.tags] if tags_after_remove else []
report["expected"] = {
    "hive": sorted(hive),
    "container": sorted(hive[:3]),
    "removed": [removed],
    "all": sorted(hive + [dev, removed, other]),
    "upstream": hive[1],
}
print(json.dumps(report))
