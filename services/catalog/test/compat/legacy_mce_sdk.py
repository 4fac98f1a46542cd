"""Emits MetadataChangeEvents (legacy snapshots) with the ecosystem's Python SDK, which posts them to
/entities?action=ingest, and reads them back; prints one JSON report on stdout.

Usage: python legacy_mce_sdk.py <gms_url> <run_id>
"""
import json
import os
import sys
from urllib.parse import quote

from datahub.emitter.rest_emitter import DatahubRestEmitter
from datahub.ingestion.graph.client import DataHubGraph, DatahubClientConfig
from datahub.metadata.schema_classes import (
    CorpUserInfoClass,
    CorpUserSnapshotClass,
    DatasetPropertiesClass,
    DatasetSnapshotClass,
    EditableSchemaFieldInfoClass,
    EditableSchemaMetadataClass,
    GlobalTagsClass,
    MetadataChangeEventClass,
    MySqlDDLClass,
    NumberTypeClass,
    SchemaFieldClass,
    SchemaFieldDataTypeClass,
    SchemaMetadataClass,
    StatusClass,
    StringTypeClass,
    SystemMetadataClass,
    TagAssociationClass,
)

gms, run = sys.argv[1], sys.argv[2]
token = os.environ["DATAHUB_GMS_TOKEN"]
report = {}
orders = f"urn:li:dataset:(urn:li:dataPlatform:mysql,mce_{run}.orders,PROD)"
user = f"urn:li:corpuser:mce_{run}"

emitter = DatahubRestEmitter(gms_server=gms, token=token)
emitter.test_connection()
emitter.emit_mce(
    MetadataChangeEventClass(
        proposedSnapshot=DatasetSnapshotClass(
            urn=orders,
            aspects=[
                DatasetPropertiesClass(description="One row per order", customProperties={"team": "sales"}),
                GlobalTagsClass(tags=[TagAssociationClass(tag="urn:li:tag:pii")]),
                SchemaMetadataClass(
                    schemaName="orders",
                    platform="urn:li:dataPlatform:mysql",
                    version=0,
                    hash="",
                    platformSchema=MySqlDDLClass(tableSchema="create table orders (...)"),
                    fields=[
                        SchemaFieldClass(fieldPath="id", type=SchemaFieldDataTypeClass(type=NumberTypeClass()), nativeDataType="int"),
                        SchemaFieldClass(fieldPath="email", type=SchemaFieldDataTypeClass(type=StringTypeClass()), nativeDataType="varchar"),
                    ],
                ),
                EditableSchemaMetadataClass(
                    editableSchemaFieldInfo=[
                        EditableSchemaFieldInfoClass(
                            fieldPath="email", globalTags=GlobalTagsClass(tags=[TagAssociationClass(tag="urn:li:tag:pii")])
                        )
                    ]
                ),
                StatusClass(removed=False),
            ],
        ),
        systemMetadata=SystemMetadataClass(runId=f"mce-{run}", lastObserved=1_700_000_000_000),
    )
)
# emit() routes an MCE through emit_mce as well.
emitter.emit(
    MetadataChangeEventClass(
        proposedSnapshot=CorpUserSnapshotClass(
            urn=user,
            aspects=[CorpUserInfoClass(active=True, displayName="MCE User", email="mce@example.com")],
        )
    )
)
report["emitted"] = True

graph = DataHubGraph(DatahubClientConfig(server=gms, token=token))
props = graph.get_aspect(orders, DatasetPropertiesClass)
report["description"] = props.description if props else None
tags = graph.get_aspect(orders, GlobalTagsClass)
report["tags"] = [t.tag for t in tags.tags] if tags else None
schema = graph.get_aspect(orders, SchemaMetadataClass)
report["platformSchema"] = type(schema.platformSchema).__name__ if schema else None
editable = graph.get_aspect(orders, EditableSchemaMetadataClass)
report["fieldTags"] = (
    {f.fieldPath: [t.tag for t in f.globalTags.tags] for f in editable.editableSchemaFieldInfo if f.globalTags}
    if editable
    else None
)
info = graph.get_aspect(user, CorpUserInfoClass)
report["displayName"] = info.displayName if info else None
raw = graph.get_entity_raw(orders, aspects=["datasetProperties"])
report["runId"] = raw["aspects"]["datasetProperties"].get("systemMetadata", {}).get("runId")

# The legacy snapshot read, through the SDK's authenticated session.
snapshot = graph._session.get(f"{gms}/entities/{quote(orders, safe='')}")
report["snapshotStatus"] = snapshot.status_code
report["snapshot"] = snapshot.json()
print(json.dumps(report))
