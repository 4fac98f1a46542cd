"""The pinned SDK's emitter in both of its modes (Rest.li and OpenAPI), with its patch builders.

usage: sdk_modes.py <gms-url> <run-tag>
For each mode: writes a dataset's properties, then applies the DatasetPatchBuilder's tag, owner, term,
custom property, description and upstream patches, and reads the aspects back. Prints one JSON line.
"""

import json
import os
import sys

from datahub.emitter.mce_builder import make_dataset_urn
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.emitter.rest_emitter import DatahubRestEmitter
from datahub.ingestion.graph.client import DatahubClientConfig, DataHubGraph
from datahub.metadata.schema_classes import (
    DatasetLineageTypeClass,
    DatasetPropertiesClass,
    GlobalTagsClass,
    GlossaryTermAssociationClass,
    GlossaryTermsClass,
    OwnerClass,
    OwnershipClass,
    OwnershipTypeClass,
    TagAssociationClass,
    UpstreamClass,
    UpstreamLineageClass,
)
from datahub.specific.dataset import DatasetPatchBuilder

GMS, RUN = sys.argv[1], sys.argv[2]
graph = DataHubGraph(DatahubClientConfig(server=GMS, token=os.environ["DATAHUB_GMS_TOKEN"]))
report = {}
for mode in ["restli", "openapi"]:
    emitter = DatahubRestEmitter(GMS, token=os.environ["DATAHUB_GMS_TOKEN"], openapi_ingestion=(mode == "openapi"))
    urn = make_dataset_urn("hive", f"modes_{RUN}.{mode}", "PROD")
    source = make_dataset_urn("hive", f"modes_{RUN}.{mode}_source", "PROD")
    emitter.emit_mcp(
        MetadataChangeProposalWrapper(
            entityUrn=urn, aspect=DatasetPropertiesClass(description="before", customProperties={"kept": "yes"})
        )
    )
    patch = (
        DatasetPatchBuilder(urn)
        .add_tag(TagAssociationClass(tag=f"urn:li:tag:{mode}"))
        .add_owner(OwnerClass(owner="urn:li:corpuser:jdoe", type=OwnershipTypeClass.TECHNICAL_OWNER))
        .add_term(GlossaryTermAssociationClass(urn=f"urn:li:glossaryTerm:{mode}"))
        .add_custom_property("team", "core")
        .set_description("after")
        .add_upstream_lineage(UpstreamClass(dataset=source, type=DatasetLineageTypeClass.TRANSFORMED))
    )
    for mcp in patch.build():
        emitter.emit_mcp(mcp)
    # A second tag patch composes with the first.
    for mcp in DatasetPatchBuilder(urn).add_tag(TagAssociationClass(tag="urn:li:tag:second")).build():
        emitter.emit_mcp(mcp)
    props = graph.get_aspect(urn, DatasetPropertiesClass)
    tags = graph.get_aspect(urn, GlobalTagsClass)
    owners = graph.get_aspect(urn, OwnershipClass)
    terms = graph.get_aspect(urn, GlossaryTermsClass)
    lineage = graph.get_aspect(urn, UpstreamLineageClass)
    report[mode] = {
        "openapi": bool(emitter._openapi_ingestion),
        "description": props.description if props else None,
        "customProperties": dict(props.customProperties) if props else None,
        "tags": sorted(t.tag for t in tags.tags) if tags else None,
        "owners": [[o.owner, o.type] for o in owners.owners] if owners else None,
        "terms": [t.urn for t in terms.terms] if terms else None,
        "upstreams": [u.dataset for u in lineage.upstreams] if lineage else None,
        "source": source,
    }
print(json.dumps(report))
