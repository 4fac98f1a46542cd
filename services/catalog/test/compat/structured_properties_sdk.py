"""The pinned SDK's structured-property helpers, mixed with the GraphQL mutations, against a catalog.

usage: structured_properties_sdk.py <gms-url> <run-tag>
Creates one property with the SDK's StructuredProperties model (its MCPs) and one with the GraphQL
createStructuredProperty mutation (through execute_graphql), reads both back with the SDK's
StructuredProperties.from_datahub and list, sets values with the GraphQL upsert and with the SDK's
DatasetPatchBuilder (set_structured_property, remove_structured_property), and reads the dataset's
values with GraphQL after each step. Prints one JSON line with what each step returned.
"""

import json
import os
import sys
import time

from datahub.api.entities.structuredproperties.structuredproperties import (
    StructuredProperties,
)
from datahub.emitter.mce_builder import make_dataset_urn
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.graph.client import DatahubClientConfig, DataHubGraph
from datahub.metadata.schema_classes import DatasetPropertiesClass
from datahub.specific.dataset import DatasetPatchBuilder

GMS, RUN = sys.argv[1], sys.argv[2]
graph = DataHubGraph(DatahubClientConfig(server=GMS, token=os.environ["DATAHUB_GMS_TOKEN"]))

dataset = make_dataset_urn("hive", f"sp_sdk_{RUN}.orders", "PROD")
graph.emit_mcp(
    MetadataChangeProposalWrapper(entityUrn=dataset, aspect=DatasetPropertiesClass(name="orders"))
)

# A property from the SDK's model: the MCPs `datahub properties upsert` emits.
retention = StructuredProperties(
    id=f"io.sdk.retention_{RUN}",
    type="number",
    display_name="Retention",
    entity_types=["dataset"],
    cardinality="SINGLE",
    allowed_values=[{"value": 30, "description": "a month"}, {"value": 90}],
    structured_property_settings={"show_in_search_filters": True},
)
for mcp in retention.generate_mcps():
    graph.emit_mcp(mcp)

# A property from GraphQL, as the web app creates one.
created = graph.execute_graphql(
    """mutation($input: CreateStructuredPropertyInput!) {
      createStructuredProperty(input: $input) { urn definition { qualifiedName cardinality } }
    }""",
    variables={
        "input": {
            "qualifiedName": f"io.sdk.tier_{RUN}",
            "displayName": "Tier",
            "valueType": "urn:li:dataType:datahub.string",
            "cardinality": "MULTIPLE",
            "entityTypes": ["urn:li:entityType:datahub.dataset"],
            "allowedValues": [{"stringValue": "gold"}, {"stringValue": "silver", "description": "second"}],
        }
    },
)["createStructuredProperty"]
tier = created["urn"]

# The SDK reads both definitions back from their stored aspects.
read_back = {}
for urn in (retention.urn, tier):
    model = StructuredProperties.from_datahub(graph, urn)
    read_back[urn] = {
        "qualified_name": model.qualified_name,
        "type": model.type,
        "cardinality": model.cardinality,
        "entity_types": model.entity_types,
        "allowed_values": [[v.value, v.description] for v in model.allowed_values or []],
    }

VALUES = """query($urn: String!) { dataset(urn: $urn) { structuredProperties { properties {
  structuredProperty { urn definition { displayName } }
  values { ...on StringValue { stringValue } ...on NumberValue { numberValue } }
} } } }"""


def values():
    props = graph.execute_graphql(VALUES, variables={"urn": dataset})["dataset"]["structuredProperties"]
    return {
        p["structuredProperty"]["urn"]: [v.get("stringValue", v.get("numberValue")) for v in p["values"]]
        for p in (props or {"properties": []})["properties"]
    }


UPSERT = """mutation($input: UpsertStructuredPropertiesInput!) {
  upsertStructuredProperties(input: $input) { properties { structuredProperty { urn } } }
}"""

graph.execute_graphql(
    UPSERT,
    variables={
        "input": {
            "assetUrn": dataset,
            "structuredPropertyInputParams": [
                {"structuredPropertyUrn": tier, "values": [{"stringValue": "gold"}, {"stringValue": "silver"}]}
            ],
        }
    },
)
after_graphql = values()

# The SDK's patch builder sets another property beside the GraphQL one.
for mcp in DatasetPatchBuilder(dataset).set_structured_property(retention.urn, 90).build():
    graph.emit_mcp(mcp)
after_patch = values()

# GraphQL replaces one property's values; the SDK's value stays.
graph.execute_graphql(
    UPSERT,
    variables={
        "input": {
            "assetUrn": dataset,
            "structuredPropertyInputParams": [{"structuredPropertyUrn": tier, "values": [{"stringValue": "silver"}]}],
        }
    },
)
after_replace = values()

for mcp in DatasetPatchBuilder(dataset).remove_structured_property(tier).build():
    graph.emit_mcp(mcp)
after_remove = values()

# The SDK's list (get_urns_by_filter over structuredProperty) finds both, once indexed.
listed = []
deadline = time.time() + 60
while time.time() < deadline:
    listed = sorted(u for u in StructuredProperties.list_urns(graph) if RUN in u)
    if len(listed) == 2:
        break
    time.sleep(0.5)

print(
    json.dumps(
        {
            "retention": retention.urn,
            "tier": tier,
            "created": created,
            "readBack": read_back,
            "afterGraphql": after_graphql,
            "afterPatch": after_patch,
            "afterReplace": after_replace,
            "afterRemove": after_remove,
            "listed": listed,
        }
    )
)
