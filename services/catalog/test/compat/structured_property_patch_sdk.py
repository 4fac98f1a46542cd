"""The pinned SDK's StructuredPropertyPatchBuilder against a catalog, in both emitter modes.

usage: structured_property_patch_sdk.py <gms-url> <run-tag>
For each mode (Rest.li and OpenAPI): defines a string property and a number property with the SDK's
definition class, then patches each with the SDK's StructuredPropertyPatchBuilder through
DataHubGraph.emit_mcps (an entity type and allowed values added, an entity type it already has added
again, the display name and description set) and reads both definitions back with get_aspect.
Prints one JSON line: per mode, per property, the definition read back.
"""

import json
import os
import sys

from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.emitter.rest_emitter import EmitMode
from datahub.ingestion.graph.client import DatahubClientConfig, DataHubGraph
from datahub.metadata.schema_classes import (
    PropertyValueClass,
    StructuredPropertyDefinitionClass,
)
from datahub.specific.structured_property import StructuredPropertyPatchBuilder

GMS, RUN = sys.argv[1], sys.argv[2]
DATASET = "urn:li:entityType:datahub.dataset"
CHART = "urn:li:entityType:datahub.chart"


def read_back(graph, urn):
    definition = graph.get_aspect(urn, StructuredPropertyDefinitionClass)
    return {
        "qualifiedName": definition.qualifiedName,
        "valueType": definition.valueType,
        "cardinality": definition.cardinality,
        "displayName": definition.displayName,
        "description": definition.description,
        "entityTypes": list(definition.entityTypes),
        "allowedValues": [[v.value, v.description] for v in definition.allowedValues or []],
    }


report = {}
for mode in ["restli", "openapi"]:
    graph = DataHubGraph(DatahubClientConfig(server=GMS, token=os.environ["DATAHUB_GMS_TOKEN"], openapi_ingestion=(mode == "openapi")))
    tier = f"urn:li:structuredProperty:io.sdk_patch_{RUN}.{mode}_tier"
    retention = f"urn:li:structuredProperty:io.sdk_patch_{RUN}.{mode}_retention"
    graph.emit_mcps(
        [
            MetadataChangeProposalWrapper(
                entityUrn=tier,
                aspect=StructuredPropertyDefinitionClass(
                    qualifiedName=tier.split(":", 3)[3],
                    valueType="urn:li:dataType:datahub.string",
                    cardinality="MULTIPLE",
                    entityTypes=[DATASET],
                    allowedValues=[PropertyValueClass(value="gold")],
                ),
            ),
            MetadataChangeProposalWrapper(
                entityUrn=retention,
                aspect=StructuredPropertyDefinitionClass(
                    qualifiedName=retention.split(":", 3)[3],
                    valueType="urn:li:dataType:datahub.number",
                    entityTypes=[DATASET],
                    allowedValues=[PropertyValueClass(value=30, description="a month")],
                ),
            ),
        ],
        emit_mode=EmitMode.SYNC_PRIMARY,
    )
    patches = [
        StructuredPropertyPatchBuilder(tier)
        .add_entity_type(CHART)
        .add_entity_type(DATASET)
        .add_allowed_value(PropertyValueClass(value="silver", description="second"))
        .add_allowed_value(PropertyValueClass(value="a/b"))
        .set_display_name("Tier")
        .set_description("How valuable"),
        # A float value: the SDK names it `/allowedValues/30.0`, the stored value is 30.
        StructuredPropertyPatchBuilder(retention)
        .add_allowed_value(PropertyValueClass(value=30.0, description="thirty days"))
        .add_allowed_value(PropertyValueClass(value=90.0)),
    ]
    graph.emit_mcps(
        [mcp for patch in patches for mcp in patch.build()], emit_mode=EmitMode.SYNC_PRIMARY
    )
    report[mode] = {"tier": read_back(graph, tier), "retention": read_back(graph, retention)}

print(json.dumps(report))
