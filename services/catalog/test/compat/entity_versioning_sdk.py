"""The pinned SDK's entity versioning helpers against a running catalog (the smoke suite's versioning flow).

usage: entity_versioning_sdk.py <gms-url> <run-tag>
Creates three datasets, links them to one version set with link_asset_to_version_set, reads the set's
latest and each version's isLatest with get_aspect, unlinks them with unlink_asset_from_version_set
(the latest, then the rest) and links them again. Prints one JSON line with what each step saw.
"""

import json
import os
import sys

from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.graph.client import DatahubClientConfig, DataHubGraph
from datahub.metadata.schema_classes import DatasetKeyClass, VersionPropertiesClass, VersionSetPropertiesClass
from datahub.metadata.urns import DatasetUrn, VersionSetUrn

GMS, RUN = sys.argv[1], sys.argv[2]
graph = DataHubGraph(DatahubClientConfig(server=GMS, token=os.environ["DATAHUB_GMS_TOKEN"]))

SET = VersionSetUrn(f"set_{RUN}", DatasetUrn.ENTITY_TYPE).urn()
URNS = [DatasetUrn("snowflake", f"versioning_{RUN}_{i}") for i in range(3)]
for urn in URNS:
    graph.emit_mcp(
        MetadataChangeProposalWrapper(
            entityUrn=urn.urn(), aspect=DatasetKeyClass(platform=urn.platform, name=urn.name, origin=urn.env)
        )
    )
ENTITIES = [u.urn() for u in URNS]


def latest():
    props = graph.get_aspect(SET, VersionSetPropertiesClass)
    return None if props is None else props.latest


def is_latest(urn):
    props = graph.get_aspect(urn, VersionPropertiesClass)
    return None if props is None else props.isLatest


report = {"set": SET, "entities": ENTITIES, "before": latest()}
report["linked"] = [graph.link_asset_to_version_set(e, SET, f"v{i}") for i, e in enumerate(ENTITIES)]
report["relinked"] = graph.link_asset_to_version_set(ENTITIES[0], SET, "again")
report["afterLink"] = {"latest": latest(), "isLatest": [is_latest(e) for e in ENTITIES]}
report["sortIds"] = [graph.get_aspect(e, VersionPropertiesClass).sortId for e in ENTITIES]
report["unlinkLatest"] = graph.unlink_asset_from_version_set(ENTITIES[2])
report["afterUnlinkLatest"] = {"latest": latest(), "isLatest": [is_latest(e) for e in ENTITIES]}
report["unlinkRest"] = [graph.unlink_asset_from_version_set(e) for e in (ENTITIES[1], ENTITIES[0])]
report["afterUnlinkAll"] = latest()
report["unlinkUnversioned"] = graph.unlink_asset_from_version_set(ENTITIES[0])
report["relinkedAll"] = [graph.link_asset_to_version_set(e, SET, f"v{i}") for i, e in enumerate(ENTITIES)]
report["afterRelink"] = latest()
print(json.dumps(report))
