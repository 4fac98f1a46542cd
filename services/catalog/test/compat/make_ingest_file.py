"""Writes a metadata file for `datahub ingest` (the `file` source) built with the pinned SDK's own classes.

For every entity type of the SDK's registry and every non-key aspect it may carry, one proposal whose
value the SDK constructs from the aspect class's schema (every field filled, the first non-null branch of
each union, URNs of the entity type a typed-URN field names), checked by the class's own `validate()`,
and written as the SDK serializes it. A few entities are also written as legacy snapshots (MCEs).

Aspects whose value is an empty record are emitted straight to the catalog with the SDK's REST emitter
instead: the SDK's file sink writes them in a form its file source cannot read back.

usage: make_ingest_file.py <out.json> <run-tag> <gms-url>
Prints one JSON line: the entity types, aspect names and counts written.
"""

import json
import os
import sys

from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.emitter.rest_emitter import DatahubRestEmitter
from datahub.ingestion.sink.file import write_metadata_file
from datahub.metadata import schema_classes as sc
from datahub.metadata.schema_classes import ASPECT_CLASSES, KEY_ASPECTS

# Typed URN classes and the entity type each requires.
TYPED_URNS = {
    "CorpuserUrn": "corpuser",
    "CorpGroupUrn": "corpGroup",
    "DatasetUrn": "dataset",
    "MLModelUrn": "mlModel",
    "MLFeatureUrn": "mlFeature",
}

OUT, TAG, GMS = sys.argv[1], sys.argv[2], sys.argv[3]


def sample_urn(entity, depth=0):
    """A URN of `entity` built from its key aspect class, parts filled like any other sample."""
    if entity == "schemaField":
        return f"urn:li:schemaField:({sample_urn('dataset', depth + 1)},field_{TAG})"
    key_class = KEY_ASPECTS.get(entity)
    if key_class is None or depth > 3:
        return f"urn:li:{entity}:{TAG}"
    parts = []
    for field in key_class.RECORD_SCHEMA.fields:
        urn_class = field.other_props.get("Urn")
        if urn_class:
            targets = field.other_props.get("entityTypes") or (
                ["dataPlatform"] if field.name == "platform" else ["corpuser"]
            )
            parts.append(sample_urn(targets[0], depth + 1))
        elif getattr(field.type, "type", None) == "enum" or str(field.type.type) == "enum":
            parts.append(field.type.symbols[0])
        else:
            parts.append(f"{field.name}_{TAG}" if entity != "dataPlatform" else f"platform_{TAG}")
    if len(parts) == 1:
        return f"urn:li:{entity}:{parts[0]}"
    return f"urn:li:{entity}:({','.join(parts)})"


def urn_for_field(props):
    urn_class = props.get("Urn")
    if urn_class == "DatasetFieldUrn":
        return f"urn:li:datasetField:({sample_urn('dataset')},field_{TAG})"
    if urn_class in TYPED_URNS:
        return sample_urn(TYPED_URNS[urn_class])
    if urn_class and urn_class.endswith("Urn") and urn_class != "Urn":
        name = urn_class[:-3]
        return sample_urn(name[0].lower() + name[1:])
    targets = props.get("entityTypes") or ["corpuser"]
    return sample_urn(targets[0])


def sample_of(schema, props, stack):
    """A JSON value (the SDK's `to_obj` form) fitting the avro `schema`."""
    kind = schema.type
    if kind == "union":
        members = [m for m in schema.schemas if m.type != "null"]
        member = members[0]
        value = sample_of(member, props, stack)
        if len(schema.schemas) == 1 or len(members) > 1:
            # Non-optional unions are keyed by the member's full name (or its type name).
            key = getattr(member, "fullname", None) or member.type
            return {key: value}
        return value
    if kind == "record":
        if schema.fullname in stack:
            return None
        stack = stack | {schema.fullname}
        out = {}
        for field in schema.fields:
            value = sample_of(field.type, field.other_props, stack)
            if value is None and field.has_default:
                continue
            out[field.name] = value
        return out
    if kind == "array":
        item = sample_of(schema.items, props, stack)
        return [] if item is None else [item]
    if kind == "map":
        item = sample_of(schema.values, props, stack)
        return {} if item is None else {"key": item}
    if kind == "enum":
        return schema.symbols[0]
    if kind == "string":
        return urn_for_field(props) if props.get("Urn") else f"text {TAG}"
    if kind in ("int", "long"):
        return 1700000000000 if kind == "long" else 7
    if kind in ("float", "double"):
        return 1.5
    if kind == "boolean":
        return True
    if kind == "bytes":
        return "AA=="
    return None


def main():
    entity_of_aspect = {}
    for entity, key_class in KEY_ASPECTS.items():
        for aspect in key_class.ASPECT_INFO.get("entityAspects", []):
            entity_of_aspect.setdefault(aspect, []).append(entity)

    records, direct, entities, aspects = [], [], set(), set()
    key_names = {cls.ASPECT_NAME for cls in KEY_ASPECTS.values()}
    for cls in ASPECT_CLASSES:
        if cls.ASPECT_NAME in key_names:
            continue
        obj = sample_of(cls.RECORD_SCHEMA, {}, frozenset())
        if cls.ASPECT_NAME == "testInfo":
            # The catalog checks a metadata test's definition on every write: a parsable one.
            obj["definition"]["json"] = json.dumps(
                {
                    "on": {"types": ["dataset"]},
                    "rules": {"property": "datasetProperties.description", "operator": "exists"},
                }
            )
        aspect = cls.from_obj(obj)
        if not aspect.validate():
            raise SystemExit(f"the SDK rejects its own sample of {cls.ASPECT_NAME}: {json.dumps(obj)}")
        for entity in entity_of_aspect.get(cls.ASPECT_NAME, []):
            mcp = MetadataChangeProposalWrapper(entityUrn=sample_urn(entity), aspect=aspect)
            (direct if obj == {} else records).append(mcp)
            entities.add(entity)
            aspects.add(cls.ASPECT_NAME)

    # Legacy snapshots, as older connectors still emit them.
    dataset = f"urn:li:dataset:(urn:li:dataPlatform:hive,mce_{TAG}.orders,PROD)"
    user = f"urn:li:corpuser:mce_{TAG}"
    snapshots = [
        sc.MetadataChangeEventClass(
            proposedSnapshot=sc.DatasetSnapshotClass(
                urn=dataset,
                aspects=[
                    sc.DatasetPropertiesClass(description="from a snapshot", customProperties={"k": "v"}),
                    sc.StatusClass(removed=False),
                    sc.GlobalTagsClass(tags=[sc.TagAssociationClass(tag=f"urn:li:tag:mce_{TAG}")]),
                ],
            )
        ),
        sc.MetadataChangeEventClass(
            proposedSnapshot=sc.CorpUserSnapshotClass(
                urn=user,
                aspects=[sc.CorpUserInfoClass(active=True, displayName="Snapshot User", email="s@x.io")],
            )
        ),
    ]
    write_metadata_file(OUT, snapshots + records)
    if direct:
        DatahubRestEmitter(GMS, token=os.environ["DATAHUB_GMS_TOKEN"]).emit_mcps(direct)
    print(
        json.dumps(
            {
                "entities": sorted(entities),
                "aspects": sorted(aspects),
                "proposals": len(records),
                "emittedDirectly": sorted({r.aspectName for r in direct}),
                "snapshots": len(snapshots),
                "snapshotDataset": dataset,
                "snapshotUser": user,
                "samples": [
                    {"urn": r.entityUrn, "aspect": r.aspectName, "value": r.aspect.to_obj()}
                    for r in records + direct
                ],
            }
        )
    )


main()
