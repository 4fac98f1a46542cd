"""Emits one MCP through the ecosystem's Kafka emitter (acryl-datahub's DatahubKafkaEmitter), the way an
ingestion run with the datahub-kafka sink does: confluent_kafka, string key = entity urn, Avro value in
the schema-registry wire format, schema registered with the registry at --registry.

  python kafka_emit.py --bootstrap 127.0.0.1:9092 --registry http://127.0.0.1:8080/schema-registry/api \
      --topic MetadataChangeProposal_v1 --urn 'urn:li:dataset:(...)' --description hello [--extended]

--extended writes with the SDK's MCP schema plus one optional field, as a newer producer would: the
registry must hand out a new id for it and the catalog must still read the record.

Prints one JSON line: {"delivered": true, "topic", "partition", "offset"} or {"delivered": false, "error"}.
"""

import argparse
import json
import sys

from datahub.emitter.kafka_emitter import DatahubKafkaEmitter, KafkaEmitterConfig
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.metadata.schema_classes import DatasetPropertiesClass


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bootstrap", required=True)
    parser.add_argument("--registry", required=True)
    parser.add_argument("--topic", required=True)
    parser.add_argument("--urn", required=True)
    parser.add_argument("--description", required=True)
    parser.add_argument("--extended", action="store_true")
    args = parser.parse_args()

    mcp = MetadataChangeProposalWrapper(
        entityUrn=args.urn,
        aspect=DatasetPropertiesClass(description=args.description, customProperties={"via": "kafka"}),
    )
    result = {}

    def on_delivery(err, msg):
        if err:
            result.update(delivered=False, error=str(err))
        else:
            result.update(delivered=True, topic=msg.topic(), partition=msg.partition(), offset=msg.offset())

    if args.extended:
        emit_extended(args, mcp, on_delivery)
    else:
        config = KafkaEmitterConfig.model_validate(
            {
                "connection": {"bootstrap": args.bootstrap, "schema_registry_url": args.registry},
                "topic_routes": {"MetadataChangeProposal": args.topic},
            }
        )
        emitter = DatahubKafkaEmitter(config)
        emitter.emit(mcp, on_delivery)
        emitter.flush()

    print(json.dumps(result or {"delivered": False, "error": "no delivery report"}))
    return 0 if result.get("delivered") else 1


def emit_extended(args, mcp, on_delivery) -> None:
    """The emitter's own producer setup, with a schema that has one field more."""
    from confluent_kafka import SerializingProducer
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import StringSerializer
    from datahub.metadata.schemas import getMetadataChangeProposalSchema

    schema = json.loads(getMetadataChangeProposalSchema())
    schema["fields"].append({"name": "traceId", "type": ["null", "string"], "default": None})

    def to_dict(item, ctx):
        obj = item.to_obj(tuples=True)
        obj["traceId"] = "compat-test"
        return obj

    producer = SerializingProducer(
        {
            "bootstrap.servers": args.bootstrap,
            "key.serializer": StringSerializer("utf_8"),
            "value.serializer": AvroSerializer(
                schema_str=json.dumps(schema),
                schema_registry_client=SchemaRegistryClient({"url": args.registry}),
                to_dict=to_dict,
            ),
        }
    )
    producer.produce(topic=args.topic, key=mcp.entityUrn, value=mcp, on_delivery=on_delivery)
    producer.flush(30)


if __name__ == "__main__":
    sys.exit(main())
