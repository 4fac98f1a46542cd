"""The pinned SDK's DatasetPatchBuilder and DataJobPatchBuilder against a catalog, in both emitter modes.

usage: dataset_patch_sdk.py <gms-url> <run-tag>
For each mode (Rest.li and OpenAPI), through DataHubGraph.emit_mcp with builders unchanged:
- a tag and a term on a schema field that has an editable entry (for_field(...).add_tag / add_term), the
  same tag again, then both removed; a tag and a term on fields that have no entry yet;
- a fine-grained lineage added and removed on a dataset (upstreamLineage) and a data job
  (dataJobInputOutput), and set as a whole list;
- documentation from two sources, then all of it removed.
Prints one JSON line: per mode, what was read back after each step.
"""

import json
import os
import sys

from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.graph.client import DatahubClientConfig, DataHubGraph
from datahub.metadata.schema_classes import (
    DataJobInputOutputClass,
    DocumentationAssociationClass,
    DocumentationClass,
    EditableSchemaFieldInfoClass,
    EditableSchemaMetadataClass,
    FineGrainedLineageClass,
    GlossaryTermAssociationClass,
    MetadataAttributionClass,
    TagAssociationClass,
    UpstreamLineageClass,
)
from datahub.specific.datajob import DataJobPatchBuilder
from datahub.specific.dataset import DatasetPatchBuilder

GMS, RUN = sys.argv[1], sys.argv[2]
TAG = f"urn:li:tag:sdk_patch_{RUN}"
TERM = f"urn:li:glossaryTerm:sdk_patch_{RUN}"


def emit(graph, builder):
    for mcp in builder.build():
        graph.emit_mcp(mcp)


def fields(graph, urn):
    aspect = graph.get_aspect(urn, EditableSchemaMetadataClass)
    return {
        f.fieldPath: {
            "description": f.description,
            "tags": [t.tag for t in (f.globalTags.tags if f.globalTags else [])],
            "terms": [t.urn for t in (f.glossaryTerms.terms if f.glossaryTerms else [])],
            "termsStamped": bool(f.glossaryTerms and f.glossaryTerms.auditStamp.actor),
        }
        for f in (aspect.editableSchemaFieldInfo if aspect else [])
    }


def lineages(aspect):
    return [
        {
            "upstreams": list(l.upstreams or []),
            "downstreams": list(l.downstreams or []),
            "upstreamType": l.upstreamType,
            "downstreamType": l.downstreamType,
            "transformOperation": l.transformOperation,
            "confidenceScore": l.confidenceScore,
        }
        for l in ((aspect.fineGrainedLineages or []) if aspect else [])
    ]


def field_patches(graph, urn):
    steps = {}
    graph.emit_mcp(
        MetadataChangeProposalWrapper(
            entityUrn=urn,
            aspect=EditableSchemaMetadataClass([EditableSchemaFieldInfoClass(fieldPath="foo.bar", description="kept")]),
        )
    )
    tag = TagAssociationClass(tag=TAG, context="test")
    emit(graph, DatasetPatchBuilder(urn).for_field("foo.bar").add_tag(tag).add_term(GlossaryTermAssociationClass(urn=TERM)).parent())
    emit(graph, DatasetPatchBuilder(urn).for_field("foo.bar").add_tag(tag).parent())
    steps["added"] = fields(graph, urn)
    emit(graph, DatasetPatchBuilder(urn).for_field("foo.bar").remove_tag(TAG).remove_term(TERM).parent())
    steps["removed"] = fields(graph, urn)
    builder = DatasetPatchBuilder(urn)
    builder.for_field("new_a").add_tag(TagAssociationClass(tag=TAG))
    builder.for_field("new/b").add_term(GlossaryTermAssociationClass(urn=TERM))
    emit(graph, builder)
    steps["newFields"] = fields(graph, urn)
    return steps


def lineage_patches(graph, urn, builder_class, aspect_class, run_mode):
    down = f"urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:postgres,down_{run_mode}_{RUN},PROD),id)"
    up = f"urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:postgres,up_{run_mode}_{RUN},PROD),id)"
    lineage = FineGrainedLineageClass(
        upstreamType="FIELD_SET", upstreams=[up], downstreamType="FIELD", downstreams=[down],
        transformOperation="OPERATION", confidenceScore=1.0,
    )
    steps = {}
    emit(graph, builder_class(urn).add_fine_grained_lineage(lineage))
    steps["added"] = lineages(graph.get_aspect(urn, aspect_class))
    emit(graph, builder_class(urn).remove_fine_grained_lineage(lineage))
    steps["removed"] = lineages(graph.get_aspect(urn, aspect_class))
    emit(graph, builder_class(urn).set_fine_grained_lineages([lineage]))
    steps["set"] = len(lineages(graph.get_aspect(urn, aspect_class)))
    emit(graph, builder_class(urn).set_fine_grained_lineages([]))
    steps["cleared"] = len(lineages(graph.get_aspect(urn, aspect_class)))
    return steps


def documentation_patches(graph, urn):
    def doc(text, source):
        return DocumentationAssociationClass(
            documentation=text,
            attribution=MetadataAttributionClass(time=1, actor="urn:li:corpuser:datahub", source=source),
        )

    emit(
        graph,
        DatasetPatchBuilder(urn)
        .add_documentation(doc("from a", "urn:li:dataHubAction:a"))
        .add_documentation(doc("from b", "urn:li:dataHubAction:b")),
    )
    added = [d.documentation for d in graph.get_aspect(urn, DocumentationClass).documentations]
    emit(graph, DatasetPatchBuilder(urn).remove_documentation())
    return {"added": added, "removed": [d.documentation for d in graph.get_aspect(urn, DocumentationClass).documentations]}


report = {}
for mode in ["restli", "openapi"]:
    graph = DataHubGraph(DatahubClientConfig(server=GMS, token=os.environ["DATAHUB_GMS_TOKEN"], openapi_ingestion=(mode == "openapi")))
    dataset = f"urn:li:dataset:(urn:li:dataPlatform:hive,sdk_patch_{mode}_{RUN},PROD)"
    job = f"urn:li:dataJob:(urn:li:dataFlow:(airflow,sdk_patch_{RUN},PROD),{mode}_job)"
    report[mode] = {
        "fields": field_patches(graph, dataset),
        "datasetLineage": lineage_patches(graph, dataset, DatasetPatchBuilder, UpstreamLineageClass, mode),
        "jobLineage": lineage_patches(graph, job, DataJobPatchBuilder, DataJobInputOutputClass, mode),
        "documentation": documentation_patches(graph, dataset),
    }
print(json.dumps(report))
