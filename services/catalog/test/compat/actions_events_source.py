"""Runs the Actions framework's `datahub-cloud` event source against the catalog, unchanged.

Usage: actions_events_source.py <server> <token> <entity urn>
Prints, as one JSON line each, the entity change events of the urn it receives through the events poll
API, and exits once its TAG event arrived (or the source went idle).
"""

import json
import sys

from datahub.ingestion.graph.client import DataHubGraph, DatahubClientConfig
from datahub_actions.api.action_graph import AcrylDataHubGraph
from datahub_actions.pipeline.pipeline_context import PipelineContext
from datahub_actions.plugin.source.acryl.datahub_cloud_event_source import (
    DataHubEventSource,
    DataHubEventsSourceConfig,
)


def main() -> None:
    server, token, urn = sys.argv[1:4]
    graph = DataHubGraph(DatahubClientConfig(server=server, token=token))
    ctx = PipelineContext(pipeline_name="catalog_compat", graph=AcrylDataHubGraph(graph))
    source = DataHubEventSource(
        DataHubEventsSourceConfig(
            topics="PlatformEvent_v1",
            lookback_days=1,
            kill_after_idle_timeout=True,
            idle_timeout_duration_seconds=30,
        ),
        ctx,
    )
    try:
        for envelope in source.events():
            event = envelope.event
            source.ack(envelope)
            if envelope.event_type == "EntityChangeEvent_v1" and event.entityUrn == urn:
                print(
                    json.dumps(
                        {
                            "entityType": event.entityType,
                            "entityUrn": event.entityUrn,
                            "category": event.category,
                            "operation": event.operation,
                            "modifier": event.modifier,
                            "actor": event.auditStamp.actor,
                        }
                    ),
                    flush=True,
                )
                if event.category == "TAG":
                    break
    finally:
        source.close()


if __name__ == "__main__":
    main()
