"""The OpenLineage Python client (openlineage-python) emitting a small pipeline's events to the catalog.

usage: openlineage_client.py <gms-url> <run-tag>
Emits, through the client's HTTP transport set up as the ecosystem documents it (url
<gms>/openapi/openlineage/, endpoint api/v1/lineage, api_key auth with the catalog token), a START
and a COMPLETE RunEvent of the job `orders_<tag>.count_orders` reading a Postgres table (with a
schema facet) and writing a BigQuery table (with a column lineage facet), and one event with a bad
token (the client's error is recorded). Then reads what became of them, waiting with a deadline:
through GraphQL (searchAcrossLineage downstream of the source, and the target's one-hop upstream
lineage) and through the SDK (DataHubGraph.get_aspect of the job's dataJobInputOutput, the target's
upstreamLineage, the source's schemaMetadata and the run's state). Prints one JSON line.
"""

import json
import os
import sys
import time
import uuid
from datetime import datetime, timedelta, timezone

from datahub.ingestion.graph.client import DatahubClientConfig, DataHubGraph
from datahub.metadata.schema_classes import (
    DataJobInputOutputClass,
    DataProcessInstanceRunEventClass,
    SchemaMetadataClass,
    UpstreamLineageClass,
)
from openlineage.client import OpenLineageClient
from openlineage.client.event_v2 import InputDataset, Job, OutputDataset, Run, RunEvent, RunState
from openlineage.client.facet_v2 import column_lineage_dataset, job_type_job, schema_dataset
from openlineage.client.transport.http import ApiKeyTokenProvider, HttpConfig, HttpTransport

GMS, TAG = sys.argv[1], sys.argv[2]
TOKEN = os.environ["DATAHUB_GMS_TOKEN"]
PRODUCER = "https://github.com/OpenLineage/OpenLineage/tree/1.54.0/client/python"


def client_with(token: str) -> OpenLineageClient:
    config = HttpConfig(
        url=f"{GMS}/openapi/openlineage/",
        endpoint="api/v1/lineage",
        timeout=30.0,
        auth=ApiKeyTokenProvider({"apiKey": token}),
    )
    return OpenLineageClient(transport=HttpTransport(config))


source_ns, source_name = "postgres://shop-db:5432", f"shop_{TAG}.public.orders"
target_ns, target_name = "bigquery", f"analytics_{TAG}.order_counts"
job = Job(
    namespace="prod",
    name=f"orders_{TAG}.count_orders",
    facets={"jobType": job_type_job.JobTypeJobFacet(processingType="BATCH", integration="AIRFLOW", jobType="TASK")},
)
inputs = [
    InputDataset(
        namespace=source_ns,
        name=source_name,
        facets={
            "schema": schema_dataset.SchemaDatasetFacet(
                fields=[
                    schema_dataset.SchemaDatasetFacetFields(name="id", type="int"),
                    schema_dataset.SchemaDatasetFacetFields(name="customer", type="string"),
                ]
            )
        },
    )
]
outputs = [
    OutputDataset(
        namespace=target_ns,
        name=target_name,
        facets={
            "columnLineage": column_lineage_dataset.ColumnLineageDatasetFacet(
                fields={
                    "orders": column_lineage_dataset.Fields(
                        inputFields=[
                            column_lineage_dataset.InputField(
                                namespace=source_ns,
                                name=source_name,
                                field="id",
                                transformations=[
                                    column_lineage_dataset.Transformation(type="DIRECT", subtype="AGGREGATION")
                                ],
                            )
                        ]
                    ),
                    "customer": column_lineage_dataset.Fields(
                        inputFields=[
                            column_lineage_dataset.InputField(namespace=source_ns, name=source_name, field="customer")
                        ]
                    ),
                }
            )
        },
    )
]

run_id = str(uuid.uuid4())
started = datetime.now(timezone.utc)
client = client_with(TOKEN)
for state, at in ((RunState.START, started), (RunState.COMPLETE, started + timedelta(seconds=3))):
    client.emit(
        RunEvent(
            eventType=state,
            eventTime=at.isoformat(),
            run=Run(runId=run_id),
            job=job,
            producer=PRODUCER,
            inputs=inputs,
            outputs=outputs,
        )
    )

refused = None
try:
    client_with("not-a-token").emit(
        RunEvent(eventType=RunState.START, eventTime=started.isoformat(), run=Run(runId=run_id), job=job, producer=PRODUCER)
    )
except Exception as error:  # the transport raises on a non-2xx answer
    response = getattr(error, "response", None)
    refused = getattr(response, "status_code", None) or type(error).__name__

source = f"urn:li:dataset:(urn:li:dataPlatform:postgres,{source_name},PROD)"
target = f"urn:li:dataset:(urn:li:dataPlatform:bigquery,{target_name},PROD)"
flow = f"urn:li:dataFlow:(airflow,orders_{TAG},prod)"
job_urn = f"urn:li:dataJob:({flow},orders_{TAG}.count_orders)"
dpi = f"urn:li:dataProcessInstance:{run_id}"

graph = DataHubGraph(DatahubClientConfig(server=GMS, token=TOKEN))


def wait_for(read, done, seconds=60):
    deadline = time.monotonic() + seconds
    value = read()
    while not done(value) and time.monotonic() < deadline:
        time.sleep(0.5)
        value = read()
    return value


SEARCH = """query($input: SearchAcrossLineageInput!) {
  searchAcrossLineage(input: $input) { searchResults { degree entity { urn type } } }
}"""
downstream = wait_for(
    lambda: graph.execute_graphql(
        SEARCH, variables={"input": {"urn": source, "direction": "DOWNSTREAM", "query": "*", "count": 20}}
    )["searchAcrossLineage"]["searchResults"],
    lambda results: any(r["entity"]["urn"] == target for r in results),
)
UPSTREAM = """query($urn: String!) {
  dataset(urn: $urn) { lineage(input: {direction: UPSTREAM, start: 0, count: 100}) { total relationships { type entity { urn } } } }
}"""
upstream = graph.execute_graphql(UPSTREAM, variables={"urn": target})["dataset"]["lineage"]

io = wait_for(
    lambda: graph.get_aspect(job_urn, DataJobInputOutputClass),
    lambda value: value is not None and len(value.fineGrainedLineages or []) == 2,
)
schema = graph.get_aspect(source, SchemaMetadataClass)
run_events = wait_for(
    lambda: graph.get_timeseries_values(dpi, DataProcessInstanceRunEventClass, filter={}, limit=10) or [],
    lambda values: len(values) == 2,
)


def run_state(value: DataProcessInstanceRunEventClass):
    return [str(value.status), str(value.result.type) if value.result else None]


print(
    json.dumps(
        {
            "expected": {"source": source, "target": target, "job": job_urn},
            "refused": refused,
            "downstream": sorted([r["entity"]["urn"], r["degree"]] for r in downstream),
            "upstream": sorted([r["type"], r["entity"]["urn"]] for r in upstream["relationships"]),
            "inputEdges": [e.destinationUrn for e in (io.inputDatasetEdges or [])] if io else None,
            "outputEdges": [e.destinationUrn for e in (io.outputDatasetEdges or [])] if io else None,
            "fineGrained": sorted([l.upstreams, l.downstreams] for l in (io.fineGrainedLineages or [])) if io else None,
            "targetUpstreamLineage": graph.get_aspect(target, UpstreamLineageClass) is not None,
            "sourceFields": [f.fieldPath for f in schema.fields] if schema else None,
            "runStates": sorted(run_state(v) for v in run_events),
        }
    )
)
