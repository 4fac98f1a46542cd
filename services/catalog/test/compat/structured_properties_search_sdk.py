"""The pinned SDK's search helpers over structured properties, as the ecosystem's smoke test uses them.

usage: structured_properties_search_sdk.py <gms-url> <run-tag>
Emits two property definitions (number, date) and their values with the SDK's emitter, waits until
they are searchable, then calls get_urns_by_filter with the smoke test's extraFilters (EXISTS on the
stored field name, over default types, tags only, and datasets and tags) and with a range on the
qualified name. Prints one JSON line with what each call returned.
"""

import json
import os
import sys
import time

from datahub.configuration.common import GraphError
from datahub.emitter.mce_builder import make_dataset_urn, make_schema_field_urn
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.graph.client import DatahubClientConfig, DataHubGraph
from datahub.metadata.schema_classes import (
    StructuredPropertiesClass,
    StructuredPropertyDefinitionClass,
    StructuredPropertyValueAssignmentClass,
)
from datahub.utilities.urns.urn import Urn

GMS, RUN = sys.argv[1], sys.argv[2]
graph = DataHubGraph(DatahubClientConfig(server=GMS, token=os.environ["DATAHUB_GMS_TOKEN"]))
namespace = f"io.acryl.{RUN}"
datasets = [make_dataset_urn("snowflake", f"table_{RUN}_{i}") for i in range(3)]
field = make_schema_field_urn(datasets[0], "column_1")


def define(name: str, value_type: str, entity_type: str) -> str:
    urn = f"urn:li:structuredProperty:{namespace}.{name}"
    graph.emit(
        MetadataChangeProposalWrapper(
            entityUrn=urn,
            aspect=StructuredPropertyDefinitionClass(
                qualifiedName=f"{namespace}.{name}",
                valueType=Urn.make_data_type_urn(value_type),
                entityTypes=[Urn.make_entity_type_urn(entity_type)],
                cardinality="SINGLE",
            ),
        )
    )
    return urn


def attach(urn: str, property_urn: str, value) -> None:
    graph.emit(
        MetadataChangeProposalWrapper(
            entityUrn=urn,
            aspect=StructuredPropertiesClass(
                properties=[StructuredPropertyValueAssignmentClass(propertyUrn=property_urn, values=[value])]
            ),
        )
    )


def es_name(name: str) -> str:
    return f"structuredProperties.{namespace.replace('.', '_')}_{name}"


sla = define("replicationSLA", "number", "dataset")
deprecation = define("deprecationDate", "date", "schemaField")
attach(datasets[0], sla, 30)
attach(datasets[1], sla, 10)
attach(field, deprecation, "2020-10-01")


def urns(types=None, extra=None):
    return sorted(graph.get_urns_by_filter(entity_types=types, extraFilters=extra))


# The smoke test sends negated as the string "false", which GraphQL's Boolean refuses here; a boolean.
exists = [{"field": es_name("replicationSLA"), "negated": False, "condition": "EXISTS"}]


def searchable() -> int:
    try:
        return len(urns(extra=exists))
    except GraphError as error:
        # The definition is stored once its write is answered, but search learns it from the change
        # log: until the indexer has it, search calls the field unknown. Only that answer is waited out.
        if "Unknown structured property field" not in str(error):
            raise
        return 0


deadline = time.time() + 60
while searchable() < 2 and time.time() < deadline:
    time.sleep(0.2)

report = {
    "existsDefault": urns(extra=exists),
    "existsTags": urns(["tag"], [{"field": es_name("deprecationDate"), "negated": False, "condition": "EXISTS"}]),
    "existsDatasetsAndTags": urns(["dataset", "tag"], exists),
    "range": urns(
        ["dataset"],
        [{"field": f"structuredProperties.{namespace}.replicationSLA", "condition": "GREATER_THAN", "values": ["20"]}],
    ),
    "datasets": datasets,
}
print(json.dumps(report))
