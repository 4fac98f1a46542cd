"""Drives a running catalog with the ecosystem's Python SDK and CLI; prints one JSON report on stdout.

Usage: python sdk_roundtrip.py <gms_url> <run_id>
"""
import json
import os
import subprocess
import sys
import time

from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.emitter.rest_emitter import DatahubRestEmitter
from datahub.ingestion.graph.client import DataHubGraph, DatahubClientConfig
from datahub.metadata.schema_classes import (
    AuditStampClass,
    DatasetLineageTypeClass,
    DatasetProfileClass,
    DatasetPropertiesClass,
    GlobalTagsClass,
    OtherSchemaClass,
    OwnerClass,
    OwnershipClass,
    OwnershipTypeClass,
    SchemaFieldClass,
    SchemaFieldDataTypeClass,
    SchemaMetadataClass,
    StatusClass,
    StringTypeClass,
    NumberTypeClass,
    TagAssociationClass,
    UpstreamClass,
    UpstreamLineageClass,
)

gms, run = sys.argv[1], sys.argv[2]
report = {}


def dataset(name: str) -> str:
    return f"urn:li:dataset:(urn:li:dataPlatform:postgres,sdk_{run}.{name},PROD)"


orders, customers = dataset("orders"), dataset("customers")
emitter = DatahubRestEmitter(gms_server=gms, token=os.environ["DATAHUB_GMS_TOKEN"])
emitter.test_connection()
report["connected"] = True

stamp = AuditStampClass(time=1_700_000_000_000, actor="urn:li:corpuser:ingestion")
emitter.emit_mcp(
    MetadataChangeProposalWrapper(
        entityUrn=orders,
        aspect=DatasetPropertiesClass(name="orders", description="One row per order", customProperties={"team": "sales"}),
    )
)
emitter.emit_mcps(
    [
        MetadataChangeProposalWrapper(
            entityUrn=orders,
            aspect=SchemaMetadataClass(
                schemaName="orders",
                platform="urn:li:dataPlatform:postgres",
                version=0,
                hash="",
                platformSchema=OtherSchemaClass(rawSchema="create table orders (...)"),
                fields=[
                    SchemaFieldClass(fieldPath="id", type=SchemaFieldDataTypeClass(type=NumberTypeClass()), nativeDataType="bigint"),
                    SchemaFieldClass(fieldPath="customer", type=SchemaFieldDataTypeClass(type=StringTypeClass()), nativeDataType="text"),
                ],
            ),
        ),
        MetadataChangeProposalWrapper(
            entityUrn=orders,
            aspect=OwnershipClass(owners=[OwnerClass(owner="urn:li:corpuser:jdoe", type=OwnershipTypeClass.DATAOWNER)]),
        ),
        MetadataChangeProposalWrapper(entityUrn=orders, aspect=GlobalTagsClass(tags=[TagAssociationClass(tag="urn:li:tag:pii")])),
        MetadataChangeProposalWrapper(
            entityUrn=orders,
            aspect=UpstreamLineageClass(upstreams=[UpstreamClass(dataset=customers, type=DatasetLineageTypeClass.TRANSFORMED, auditStamp=stamp)]),
        ),
        MetadataChangeProposalWrapper(entityUrn=customers, aspect=StatusClass(removed=False)),
        MetadataChangeProposalWrapper(
            entityUrn=orders,
            aspect=DatasetProfileClass(timestampMillis=1_700_000_000_000, rowCount=42, columnCount=2),
        ),
    ]
)
report["emitted"] = True

graph = DataHubGraph(DatahubClientConfig(server=gms, token=os.environ["DATAHUB_GMS_TOKEN"]))
props = graph.get_aspect(orders, DatasetPropertiesClass)
report["properties"] = {"description": props.description, "customProperties": props.customProperties} if props else None
ownership = graph.get_aspect(orders, OwnershipClass)
report["owners"] = [o.owner for o in ownership.owners] if ownership else None
schema = graph.get_aspect(orders, SchemaMetadataClass)
report["fieldPaths"] = [f.fieldPath for f in schema.fields] if schema else None
report["missingAspect"] = graph.get_aspect(customers, DatasetPropertiesClass) is None
report["exists"] = graph.exists(orders)
raw = graph.get_entity_raw(orders, aspects=["datasetProperties", "globalTags"])
report["rawAspects"] = sorted(raw.get("aspects", {}).keys())
# Time-series values are read from their index, which the indexer fills after the write is acknowledged
# (as the ecosystem's smoke tests wait for writes to sync): poll until the profile is there.
deadline = time.monotonic() + 30
while True:
    profiles = graph.get_timeseries_values(orders, DatasetProfileClass, filter={"or": []}, limit=5)
    if profiles or time.monotonic() > deadline:
        break
    time.sleep(0.1)
report["profileRowCounts"] = [p.rowCount for p in profiles]

cli = subprocess.run(
    [os.path.join(os.path.dirname(sys.executable), "datahub"), "get", "--urn", orders, "-a", "datasetProperties"],
    capture_output=True,
    text=True,
    env={**os.environ, "DATAHUB_GMS_URL": gms, "DATAHUB_TELEMETRY_ENABLED": "false"},
    timeout=120,
)
report["cliExit"] = cli.returncode
report["cliOutput"] = json.loads(cli.stdout) if cli.returncode == 0 and cli.stdout.strip().startswith("{") else cli.stdout + cli.stderr

print(json.dumps(report))
