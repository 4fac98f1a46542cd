"""The pinned SDK's platform resource search (PlatformResource.search_by_key / search_by_filters).

usage: platform_resource_search.py <gms-url> <run-tag>
Writes three platform resources through the SDK, waits until search has them, then looks them up by
primary key, by secondary key (a plain one and a dataset urn), and by type without one platform. Prints
one JSON line.
"""

import json
import os
import sys
import time

from datahub.api.entities.platformresource.platform_resource import (
    ElasticPlatformResourceQuery,
    LogicalOperator,
    PlatformResource,
    PlatformResourceKey,
    PlatformResourceSearchFields,
)
from datahub.ingestion.graph.client import DatahubClientConfig, DataHubGraph

GMS, RUN = sys.argv[1], sys.argv[2]
graph = DataHubGraph(DatahubClientConfig(server=GMS, token=os.environ["DATAHUB_GMS_TOKEN"]))
dataset = f"urn:li:dataset:(urn:li:dataPlatform:test,secondary_{RUN},PROD)"
keys = [
    PlatformResourceKey(platform=f"p1_{RUN}", resource_type=f"type_{RUN}", primary_key=f"pk1_{RUN}"),
    PlatformResourceKey(platform=f"p2_{RUN}", resource_type=f"type_{RUN}", primary_key=f"pk2_{RUN}"),
    PlatformResourceKey(platform=f"p1_{RUN}", resource_type=f"other_{RUN}", primary_key=f"pk3_{RUN}"),
]
secondary = [[f"sk1_{RUN}"], [dataset], []]
for key, keys2 in zip(keys, secondary):
    PlatformResource.create(key=key, secondary_keys=keys2, value={"run": RUN}).to_datahub(graph)


def ids(results):
    return sorted(r.id for r in results)


deadline = time.time() + 60
while len(ids(PlatformResource.search_by_key(graph, f"pk3_{RUN}"))) < 1 and time.time() < deadline:
    time.sleep(0.5)

not_p1 = (
    ElasticPlatformResourceQuery.create_from()
    .group(LogicalOperator.AND)
    .add_field_match(PlatformResourceSearchFields.RESOURCE_TYPE, f"type_{RUN}")
    .add_field_not_match(PlatformResourceSearchFields.PLATFORM, f"p1_{RUN}")
    .end()
)
print(
    json.dumps(
        {
            "ids": [key.id for key in keys],
            "byPrimary": ids(PlatformResource.search_by_key(graph, f"pk1_{RUN}")),
            "secondaryOnlyAsPrimary": ids(PlatformResource.search_by_key(graph, f"sk1_{RUN}")),
            "bySecondary": ids(PlatformResource.search_by_key(graph, f"sk1_{RUN}", primary=False)),
            "byUrnSecondary": ids(PlatformResource.search_by_key(graph, dataset, primary=False)),
            "typeNotP1": ids(PlatformResource.search_by_filters(graph, query=not_p1)),
        }
    )
)
