"""The pinned SDK's OpenAPI scroll (DataHubGraph.scroll_entities), unchanged, against the catalog.

usage: openapi_scroll.py <gms-url> <run-tag>
Writes six datasets through the SDK's emitter, waits until search has them, then scrolls them sorted by
name in pages of two, in three slices, with a platform filter, and with system metadata. Prints one JSON
line.
"""

import json
import os
import sys
import time

from datahub.emitter.mce_builder import make_dataset_urn
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.graph.client import DatahubClientConfig, DataHubGraph
from datahub.metadata.schema_classes import DatasetPropertiesClass

GMS, RUN = sys.argv[1], sys.argv[2]
graph = DataHubGraph(DatahubClientConfig(server=GMS, token=os.environ["DATAHUB_GMS_TOKEN"]))
NAMES = ["echo", "bravo", "foxtrot", "alpha", "delta", "charlie"]
urns = {}
for i, name in enumerate(NAMES):
    platform = "kafka" if i % 2 == 0 else "hive"
    urn = make_dataset_urn(platform, f"scroll_{RUN}.n{i}", "PROD")
    urns[urn] = name
    graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urn, aspect=DatasetPropertiesClass(name=name)))


def scroll_all(**kwargs):
    seen, scroll_id, pages = [], None, 0
    while True:
        result = graph.scroll_entities(entity_names=["dataset"], query=f"scroll_{RUN}", scroll_id=scroll_id, **kwargs)
        seen.extend(result.entities.keys())
        pages += 1
        scroll_id = result.scroll_id
        if scroll_id is None or pages > 20:
            return seen, result


deadline = time.time() + 60
while len(scroll_all(count=10)[0]) < len(NAMES) and time.time() < deadline:
    time.sleep(0.5)

by_name, _ = scroll_all(count=2, sort_criteria=[{"field": "name", "order": "DESCENDING"}])
slices = [scroll_all(count=2, slice_id=i, slice_max=3)[0] for i in range(3)]
kafka, _ = scroll_all(count=10, filter=[{"and": [{"field": "platform", "values": ["urn:li:dataPlatform:kafka"]}]}])
typed, last = scroll_all(count=10, aspects=["datasetProperties"], with_system_metadata=True)
first = next(iter(last.entities.values()))["datasetProperties"]
print(
    json.dumps(
        {
            "names": [urns[u] for u in by_name],
            "slices": slices,
            "all": sorted(urns),
            "kafka": sorted(kafka),
            "expectedKafka": sorted(u for u in urns if "kafka" in u),
            "total": last.total_count,
            "typedName": type(first[0]).__name__,
            "hasSystemMetadata": first[1] is not None,
        }
    )
)
