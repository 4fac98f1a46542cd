"""The pinned SDK's OpenAPI emitter with EmitMode.ASYNC_WAIT against a catalog.

usage: async_wait_sdk.py <gms-url> <run-tag>
The emitter writes asynchronously and then polls the write trace (POST /openapi/v1/trace/write/{id})
until no aspect is pending; it raises TraceValidationError when one failed. Steps:
- whether the emitter says ASYNC_WAIT is supported by this server (its config and OpenAPI mode);
- a batch of two aspects and a single aspect, each emitted with ASYNC_WAIT, read back right after it
  returns (the write is stored) and found by a search right after (it is indexed);
- a write that persistence refuses (If-Version-Match that cannot hold): what ASYNC_WAIT raises.
Prints one JSON line with what was observed.
"""

import json
import os
import sys

from datahub.configuration.common import TraceValidationError
from datahub.emitter.emit_mode import EmitMode
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.emitter.rest_emitter import DatahubRestEmitter
from datahub.ingestion.graph.client import DatahubClientConfig, DataHubGraph
from datahub.metadata.schema_classes import (
    DatasetPropertiesClass,
    GlobalTagsClass,
    StatusClass,
    TagAssociationClass,
)

GMS, RUN = sys.argv[1], sys.argv[2]
TOKEN = os.environ["DATAHUB_GMS_TOKEN"]


def dataset(name):
    return f"urn:li:dataset:(urn:li:dataPlatform:hive,async_wait_{RUN}.{name},PROD)"


emitter = DatahubRestEmitter(GMS, token=TOKEN, openapi_ingestion=True)
emitter.test_connection()
graph = DataHubGraph(DatahubClientConfig(server=GMS, token=TOKEN))
report = {
    "openapi": bool(emitter._openapi_ingestion),
    "supported": bool(emitter._should_trace(EmitMode.ASYNC_WAIT, warn=False)),
}

batch = dataset("batch")
emitter.emit_mcps(
    [
        MetadataChangeProposalWrapper(
            entityUrn=batch,
            aspect=DatasetPropertiesClass(name=f"async wait {RUN}", description="written with ASYNC_WAIT"),
        ),
        MetadataChangeProposalWrapper(entityUrn=batch, aspect=StatusClass(removed=False)),
    ],
    emit_mode=EmitMode.ASYNC_WAIT,
)
properties = graph.get_aspect(batch, DatasetPropertiesClass)
report["batchDescription"] = properties.description if properties else None
report["batchStatus"] = bool(graph.get_aspect(batch, StatusClass))
report["batchSearched"] = batch in list(
    graph.get_urns_by_filter(entity_types=["dataset"], query=f"async_wait_{RUN}")
)

single = dataset("single")
emitter.emit_mcp(
    MetadataChangeProposalWrapper(
        entityUrn=single,
        aspect=GlobalTagsClass(tags=[TagAssociationClass(tag=f"urn:li:tag:async_wait_{RUN}")]),
    ),
    emit_mode=EmitMode.ASYNC_WAIT,
)
tags = graph.get_aspect(single, GlobalTagsClass)
report["singleTags"] = [t.tag for t in tags.tags] if tags else []

refused = dataset("refused")
try:
    emitter.emit_mcp(
        MetadataChangeProposalWrapper(
            entityUrn=refused,
            aspect=StatusClass(removed=False),
            headers={"If-Version-Match": "-10000"},
        ),
        emit_mode=EmitMode.ASYNC_WAIT,
    )
    report["refused"] = None
except TraceValidationError as e:
    report["refused"] = {"error": type(e).__name__, "message": str(e)}
report["refusedStored"] = bool(graph.get_aspect(refused, StatusClass))

print(json.dumps(report))
