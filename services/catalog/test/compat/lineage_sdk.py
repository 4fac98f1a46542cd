"""The pinned SDK's lineage client against a running catalog.

usage: lineage_sdk.py <gms-url> <run-tag>
Writes four datasets with the SDK's entity client, lineage up -> d1 -> d2 (table and column, as full
upstreamLineage aspects) and d2 -> d3 with the lineage client's add_lineage (table level, a patch),
then reads it back with get_lineage: table lineage to three hops, one hop, column lineage from a
column, and a platform filter. Prints one JSON line with what each call returned.
"""

import json
import os
import sys
import time

from datahub.emitter.mce_builder import make_schema_field_urn
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.graph.client import DatahubClientConfig, DataHubGraph
from datahub.metadata.schema_classes import (
    DatasetLineageTypeClass,
    FineGrainedLineageClass,
    FineGrainedLineageDownstreamTypeClass,
    FineGrainedLineageUpstreamTypeClass,
    UpstreamClass,
    UpstreamLineageClass,
)
from datahub.sdk.dataset import Dataset
from datahub.sdk.main_client import DataHubClient
from datahub.sdk.search_filters import FilterDsl as F

GMS, RUN = sys.argv[1], sys.argv[2]
graph = DataHubGraph(DatahubClientConfig(server=GMS, token=os.environ["DATAHUB_GMS_TOKEN"]))
client = DataHubClient(graph=graph)

names = [("snowflake", "up"), ("snowflake", "d1"), ("snowflake", "d2"), ("mysql", "d3")]
datasets = [
    Dataset(platform=p, name=f"lin_{RUN}_{n}", schema=[("name", "string"), ("id", "int")]) for p, n in names
]
for d in datasets:
    client.entities.upsert(d)
up, d1, d2, d3 = (str(d.urn) for d in datasets)


def column_lineage(upstream: str, downstream: str) -> MetadataChangeProposalWrapper:
    return MetadataChangeProposalWrapper(
        entityUrn=downstream,
        aspect=UpstreamLineageClass(
            upstreams=[UpstreamClass(dataset=upstream, type=DatasetLineageTypeClass.TRANSFORMED)],
            fineGrainedLineages=[
                FineGrainedLineageClass(
                    upstreamType=FineGrainedLineageUpstreamTypeClass.FIELD_SET,
                    upstreams=[make_schema_field_urn(upstream, col)],
                    downstreamType=FineGrainedLineageDownstreamTypeClass.FIELD,
                    downstreams=[make_schema_field_urn(downstream, col)],
                )
                for col in ("name", "id")
            ],
        ),
    )


graph.emit_mcp(column_lineage(up, d1))
graph.emit_mcp(column_lineage(d1, d2))
client.lineage.add_lineage(upstream=d2, downstream=d3)

# Writes are indexed asynchronously: wait (bounded) until the last edge is in the graph.
deadline = time.time() + 60
while time.time() < deadline:
    if any(r.urn == d2 for r in client.lineage.get_lineage(source_urn=d3, direction="upstream")):
        break
    time.sleep(0.5)


def results(found):
    return sorted(
        ([r.urn, r.hops, r.platform, len(r.paths or [])] for r in found), key=lambda r: (r[1], r[0])
    )


report = {
    "expected": {"up": up, "d1": d1, "d2": d2, "d3": d3},
    "tables": results(client.lineage.get_lineage(source_urn=up, direction="downstream", max_hops=3)),
    "oneHop": results(client.lineage.get_lineage(source_urn=up, direction="downstream", max_hops=1)),
    "upstreamOfD3": results(client.lineage.get_lineage(source_urn=d3, direction="upstream", max_hops=2)),
    "columns": results(
        client.lineage.get_lineage(source_urn=up, source_column="id", direction="downstream", max_hops=3)
    ),
    "mysqlOnly": results(
        client.lineage.get_lineage(
            source_urn=up, direction="downstream", max_hops=3, filter=F.platform("mysql")
        )
    ),
}
print(json.dumps(report))
