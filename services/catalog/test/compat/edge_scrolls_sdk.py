"""The pinned SDK's graph calls over lineage and counts, unchanged, against the catalog.

usage: edge_scrolls_sdk.py <gms-url> <run-tag>
Writes lineage (a dataset DownstreamOf another, a job that Consumes one and Produces another) and a
dataset known only by a time-series aspect, waits until they are indexed, then reads them back through
scroll_lineage, scroll_relationships, get_aspect_counts, list_all_entity_urns and
get_dataset_urns_ignoring_case. Prints one JSON line.
"""

import json
import os
import sys
import time

from datahub.emitter.mce_builder import make_data_job_urn, make_dataset_urn
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.graph.client import DatahubClientConfig, DataHubGraph
from datahub.ingestion.graph.openapi import LineageDirection, RelationshipDirection
from datahub.metadata.schema_classes import (
    DataJobInputOutputClass,
    DatasetKeyClass,
    DatasetUsageStatisticsClass,
    UpstreamClass,
    UpstreamLineageClass,
)

GMS, RUN = sys.argv[1], sys.argv[2]
graph = DataHubGraph(DatahubClientConfig(server=GMS, token=os.environ["DATAHUB_GMS_TOKEN"]))
ALPHA = make_dataset_urn("hive", f"edges_{RUN}.alpha")
GAMMA = make_dataset_urn("hive", f"edges_{RUN}.gamma")
ZETA = make_dataset_urn("hive", f"edges_{RUN}.zeta")
JOB = make_data_job_urn("airflow", f"edges_{RUN}", "job")
USAGE = make_dataset_urn("bigquery", f"Edges_{RUN}.Usage_Only")

graph.emit_mcp(
    MetadataChangeProposalWrapper(
        entityUrn=ZETA, aspect=UpstreamLineageClass(upstreams=[UpstreamClass(dataset=ALPHA, type="TRANSFORMED")])
    )
)
graph.emit_mcp(
    MetadataChangeProposalWrapper(
        entityUrn=JOB, aspect=DataJobInputOutputClass(inputDatasets=[ALPHA], outputDatasets=[GAMMA])
    )
)
graph.emit_mcp(
    MetadataChangeProposalWrapper(
        entityUrn=USAGE,
        aspect=DatasetUsageStatisticsClass(timestampMillis=1_700_000_000_000, uniqueUserCount=3),
    )
)


def edges(**kwargs):
    seen, scroll_id, pages = [], None, 0
    while True:
        result = graph.scroll_lineage(scroll_id=scroll_id, **kwargs)
        seen.extend([r.relationship_type, r.upstream_urn, r.downstream_urn] for r in result.relationships)
        pages += 1
        scroll_id = result.scroll_id
        if scroll_id is None or pages > 20:
            return sorted(seen), pages


deadline = time.time() + 60
while len(edges(urns=[ALPHA])[0]) < 2 and time.time() < deadline:
    time.sleep(0.5)
# get_urns_by_filter returns a generator (always truthy): wait for the usage-only dataset itself.
while USAGE not in list(graph.get_urns_by_filter(entity_types=["dataset"], query=f"Edges_{RUN}")):
    if time.time() > deadline:
        break
    time.sleep(0.5)

around_alpha, _ = edges(urns=[ALPHA])
paged, pages = edges(urns=[ALPHA], count=1)
relationships = graph.scroll_relationships(source_urns=[ZETA], relationship_types=["DownstreamOf"], count=10)
incoming = graph.scroll_relationships(source_urns=[ALPHA], direction=RelationshipDirection.INCOMING, count=10)
usage_key = graph.get_aspect(USAGE, DatasetKeyClass)
listed = []
for start in range(0, 10_000, 100):
    page = graph.list_all_entity_urns("dataset", start, 100) or []
    listed.extend(page)
    if len(page) < 100:
        break
print(
    json.dumps(
        {
            "alpha": ALPHA,
            "gamma": GAMMA,
            "zeta": ZETA,
            "job": JOB,
            "usage": USAGE,
            "aroundAlpha": around_alpha,
            "pagedOneByOne": paged,
            "pages": pages,
            "jobUpstream": edges(urns=[JOB], direction=LineageDirection.UPSTREAM)[0],
            "jobDownstream": edges(urns=[JOB], direction=LineageDirection.DOWNSTREAM)[0],
            "alphaUpstream": edges(urns=[ALPHA], direction=LineageDirection.UPSTREAM)[0],
            "relationships": [
                [r.relationship_type, r.source_urn, r.source_entity_type, r.destination_urn]
                for r in relationships.relationships
            ],
            "incomingSources": sorted(r.source_urn for r in incoming.relationships),
            "usageKeyName": usage_key.name if usage_key else None,
            "usageSearched": USAGE in list(graph.get_urns_by_filter(entity_types=["dataset"], query=f"Edges_{RUN}")),
            "datasetKeyCount": graph.get_aspect_counts("datasetKey", urn_like=f"%edges_{RUN}%"),
            "listedHasUsage": USAGE in listed,
            "ignoringCase": graph.get_dataset_urns_ignoring_case(
                make_dataset_urn("bigquery", f"Edges_{RUN}.Usage_Only".lower())
            ),
        }
    )
)
