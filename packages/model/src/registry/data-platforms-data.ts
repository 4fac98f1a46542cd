/**
 * The data platforms the ecosystem knows at start (its bootstrap of `dataPlatformInfo`, one entity per
 * platform, keyed by the urn's id, which for one platform differs from its `name`): the platform's
 * name, display name, type, the delimiter of its dataset names and its logo's path.
 */
export interface DataPlatformEntry {
  /** The id in the urn (`urn:li:dataPlatform:<id>`). */
  readonly id: string;
  readonly info: {
    readonly name: string;
    readonly displayName?: string;
    readonly type: string;
    readonly datasetNameDelimiter: string;
    readonly logoUrl?: string;
    readonly logical?: boolean;
  };
}

export const DATA_PLATFORMS: readonly DataPlatformEntry[] = [
  {
    id: 'adlsGen1',
    info: {
      name: 'adlsGen1',
      displayName: 'Azure Data Lake (Gen 1)',
      type: 'FILE_SYSTEM',
      datasetNameDelimiter: '/',
      logoUrl: 'assets/platforms/adlslogo.png',
    },
  },
  {
    id: 'adlsGen2',
    info: {
      name: 'adlsGen2',
      displayName: 'Azure Data Lake (Gen 2)',
      type: 'FILE_SYSTEM',
      datasetNameDelimiter: '/',
      logoUrl: 'assets/platforms/adlslogo.png',
    },
  },
  {
    id: 'aerospike',
    info: {
      name: 'aerospike',
      displayName: 'Aerospike',
      type: 'KEY_VALUE_STORE',
      datasetNameDelimiter: '.',
      logoUrl: '/assets/platforms/aerospike.png',
    },
  },
  {
    id: 'azure-data-factory',
    info: {
      name: 'azure-data-factory',
      displayName: 'Azure Data Factory',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/azuredatafactorylogo.svg',
    },
  },
  {
    id: 'airflow',
    info: {
      name: 'airflow',
      displayName: 'Airflow',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/airflowlogo.png',
    },
  },
  {
    id: 'ambry',
    info: { name: 'ambry', displayName: 'Ambry', type: 'OBJECT_STORE', datasetNameDelimiter: '.' },
  },
  {
    id: 'clickhouse',
    info: {
      name: 'clickhouse',
      displayName: 'ClickHouse',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/clickhouselogo.png',
    },
  },
  {
    id: 'cloudsql',
    info: {
      name: 'cloudsql',
      displayName: 'Cloud SQL',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/cloudsqllogo.png',
    },
  },
  {
    id: 'cockroachdb',
    info: {
      name: 'cockroachdb',
      displayName: 'CockroachDb',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/cockroachdblogo.png',
    },
  },
  {
    id: 'doris',
    info: {
      name: 'doris',
      displayName: 'Apache Doris',
      type: 'OLAP_DATASTORE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/dorislogo.png',
    },
  },
  {
    id: 'couchbase',
    info: {
      name: 'couchbase',
      displayName: 'Couchbase',
      type: 'KEY_VALUE_STORE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/couchbaselogo.png',
    },
  },
  {
    id: 'dagster',
    info: {
      name: 'dagster',
      displayName: 'Dagster',
      type: 'OTHERS',
      datasetNameDelimiter: '/',
      logoUrl: 'assets/platforms/dagsterlogo.svg',
    },
  },
  {
    id: 'dataplex',
    info: {
      name: 'dataplex',
      displayName: 'Dataplex',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/dataplexlogo.svg',
    },
  },
  {
    id: 'dataproc-metastore',
    info: {
      name: 'dataproc-metastore',
      displayName: 'Dataproc Metastore',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/dataprocmetastorelogo.svg',
    },
  },
  {
    id: 'documentdb',
    info: {
      name: 'documentdb',
      displayName: 'DocumentDB',
      type: 'KEY_VALUE_STORE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/documentdblogo.svg',
    },
  },
  {
    id: 'external',
    info: { name: 'external', displayName: 'External Source', type: 'OTHERS', datasetNameDelimiter: '.' },
  },
  {
    id: 'hdfs',
    info: {
      name: 'hdfs',
      displayName: 'HDFS',
      type: 'FILE_SYSTEM',
      datasetNameDelimiter: '/',
      logoUrl: 'assets/platforms/hadooplogo.png',
    },
  },
  {
    id: 'hana',
    info: {
      name: 'hana',
      displayName: 'SAP HANA',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/hanalogo.png',
    },
  },
  {
    id: 'informix',
    info: {
      name: 'informix',
      displayName: 'Informix',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/informixlogo.png',
    },
  },
  {
    id: 'hive',
    info: {
      name: 'hive',
      displayName: 'Hive',
      type: 'FILE_SYSTEM',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/hivelogo.png',
    },
  },
  {
    id: 'hudi',
    info: {
      name: 'hudi',
      displayName: 'Hudi',
      type: 'FILE_SYSTEM',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/hudilogo.png',
    },
  },
  {
    id: 'iceberg',
    info: {
      name: 'iceberg',
      displayName: 'Iceberg',
      type: 'FILE_SYSTEM',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/iceberglogo.png',
    },
  },
  {
    id: 's3',
    info: {
      name: 's3',
      displayName: 'AWS S3',
      type: 'FILE_SYSTEM',
      datasetNameDelimiter: '/',
      logoUrl: 'assets/platforms/s3.png',
    },
  },
  {
    id: 'kafka',
    info: {
      name: 'kafka',
      displayName: 'Kafka',
      type: 'MESSAGE_BROKER',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/kafkalogo.png',
    },
  },
  {
    id: 'kafka-connect',
    info: {
      name: 'kafka-connect',
      displayName: 'Kafka Connect',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/kafkalogo.png',
    },
  },
  {
    id: 'kinesis',
    info: {
      name: 'kinesis',
      displayName: 'Amazon Kinesis Data Streams',
      type: 'MESSAGE_BROKER',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/kinesislogo.png',
    },
  },
  {
    id: 'kinesis-firehose',
    info: {
      name: 'kinesis-firehose',
      displayName: 'Amazon Data Firehose',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/kinesisfirehoselogo.png',
    },
  },
  {
    id: 'kusto',
    info: {
      name: 'kusto',
      displayName: 'Kusto',
      type: 'OLAP_DATASTORE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/kustologo.png',
    },
  },
  {
    id: 'mode',
    info: {
      name: 'mode',
      displayName: 'Mode',
      type: 'KEY_VALUE_STORE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/modelogo.png',
    },
  },
  {
    id: 'mongodb',
    info: {
      name: 'mongodb',
      displayName: 'MongoDB',
      type: 'KEY_VALUE_STORE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/mongodblogo.png',
    },
  },
  {
    id: 'mysql',
    info: {
      name: 'mysql',
      displayName: 'MySQL',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/mysqllogo.png',
    },
  },
  {
    id: 'db2',
    info: {
      name: 'db2',
      displayName: 'DB2',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/db2logo.png',
    },
  },
  {
    id: 'mariadb',
    info: {
      name: 'mariadb',
      displayName: 'MariaDB',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/mariadblogo.svg',
    },
  },
  {
    id: 'tidb',
    info: {
      name: 'tidb',
      displayName: 'TiDB',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/tidblogo.svg',
    },
  },
  {
    id: 'matillion',
    info: {
      name: 'matillion',
      displayName: 'Matillion',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/matillionlogo.png',
    },
  },
  {
    id: 'bigid',
    info: {
      name: 'bigid',
      displayName: 'BigID',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/bigidlogo.png',
    },
  },
  {
    id: 'cube',
    info: {
      name: 'cube',
      displayName: 'Cube',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/cubelogo.png',
    },
  },
  {
    id: 'odcs',
    info: {
      name: 'odcs',
      displayName: 'Open Data Contract Standard',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/odcslogo.png',
      logical: true,
    },
  },
  {
    id: 'OpenApi',
    info: {
      name: 'openapi',
      displayName: 'OpenAPI',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/openapilogo.png',
    },
  },
  {
    id: 'oracle',
    info: {
      name: 'oracle',
      displayName: 'Oracle',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/oraclelogo.png',
    },
  },
  {
    id: 'pinot',
    info: {
      name: 'pinot',
      displayName: 'Pinot',
      type: 'OLAP_DATASTORE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/pinotlogo.png',
    },
  },
  {
    id: 'postgres',
    info: {
      name: 'postgres',
      displayName: 'PostgreSQL',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/postgreslogo.png',
    },
  },
  {
    id: 'prefect',
    info: {
      name: 'prefect',
      displayName: 'Prefect',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/prefectlogo.png',
    },
  },
  {
    id: 'presto',
    info: {
      name: 'prefect',
      displayName: 'Prefect',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/prefectlogo.png',
    },
  },
  {
    id: 'presto',
    info: {
      name: 'presto',
      displayName: 'Presto',
      type: 'QUERY_ENGINE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/prestologo.png',
    },
  },
  {
    id: 'tableau',
    info: {
      name: 'tableau',
      displayName: 'Tableau',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/tableaulogo.svg',
    },
  },
  {
    id: 'thoughtspot',
    info: {
      name: 'thoughtspot',
      displayName: 'ThoughtSpot',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/thoughtspotlogo.svg',
    },
  },
  {
    id: 'teradata',
    info: {
      name: 'teradata',
      displayName: 'Teradata',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/teradatalogo.png',
    },
  },
  {
    id: 'voldemort',
    info: { name: 'voldemort', displayName: 'Voldemort', type: 'KEY_VALUE_STORE', datasetNameDelimiter: '.' },
  },
  {
    id: 'snowflake',
    info: {
      name: 'snowflake',
      displayName: 'Snowflake',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/snowflakelogo.png',
    },
  },
  {
    id: 'sqlmesh',
    info: {
      name: 'sqlmesh',
      displayName: 'SQLMesh',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/sqlmeshlogo.png',
    },
  },
  {
    id: 'spanner',
    info: {
      name: 'spanner',
      displayName: 'Cloud Spanner',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/spannerlogo.png',
    },
  },
  {
    id: 'snowplow',
    info: {
      name: 'snowplow',
      displayName: 'Snowplow',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/snowplowlogo.png',
    },
  },
  {
    id: 'redshift',
    info: {
      name: 'redshift',
      displayName: 'Redshift',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/redshiftlogo.png',
    },
  },
  {
    id: 'mssql',
    info: {
      name: 'mssql',
      displayName: 'SQL Server',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/mssqllogo.png',
    },
  },
  {
    id: 'bigtable',
    info: {
      name: 'bigtable',
      displayName: 'Cloud Bigtable',
      type: 'KEY_VALUE_STORE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/bigtablelogo.png',
    },
  },
  {
    id: 'bigquery',
    info: {
      name: 'bigquery',
      displayName: 'BigQuery',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/bigquerylogo.png',
    },
  },
  {
    id: 'druid',
    info: {
      name: 'druid',
      displayName: 'Druid',
      type: 'OLAP_DATASTORE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/druidlogo.png',
    },
  },
  {
    id: 'looker',
    info: {
      name: 'looker',
      displayName: 'Looker',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/lookerlogo.svg',
    },
  },
  {
    id: 'feast',
    info: {
      name: 'feast',
      displayName: 'Feast',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/feastlogo.png',
    },
  },
  {
    id: 'flink',
    info: {
      name: 'flink',
      displayName: 'Flink',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/flinklogo.svg',
    },
  },
  {
    id: 'sagemaker',
    info: {
      name: 'sagemaker',
      displayName: 'SageMaker',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/sagemakerlogo.png',
    },
  },
  {
    id: 'mlflow',
    info: {
      name: 'mlflow',
      displayName: 'MLflow',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/mlflowlogo2.png',
    },
  },
  {
    id: 'glue',
    info: {
      name: 'glue',
      displayName: 'Glue',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/gluelogo.png',
    },
  },
  {
    id: 'redash',
    info: {
      name: 'redash',
      displayName: 'Redash',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/redashlogo.png',
    },
  },
  {
    id: 'athena',
    info: {
      name: 'athena',
      displayName: 'AWS Athena',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/awsathenalogo.png',
    },
  },
  {
    id: 'spark',
    info: {
      name: 'spark',
      displayName: 'Spark',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/sparklogo.png',
    },
  },
  {
    id: 'dbt',
    info: {
      name: 'dbt',
      displayName: 'dbt',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/dbtlogo.png',
    },
  },
  {
    id: 'elasticsearch',
    info: {
      name: 'elasticsearch',
      displayName: 'Elasticsearch',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/elasticsearchlogo.png',
    },
  },
  {
    id: 'great-expectations',
    info: {
      name: 'Great Expectations',
      displayName: 'Great Expectations',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/greatexpectationslogo.png',
    },
  },
  {
    id: 'powerbi',
    info: {
      name: 'powerbi',
      displayName: 'Power BI',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/powerbilogo.svg',
    },
  },
  {
    id: 'presto-on-hive',
    info: {
      name: 'presto-on-hive',
      displayName: 'Presto on Hive',
      type: 'FILE_SYSTEM',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/prestoonhivelogo.png',
    },
  },
  {
    id: 'metabase',
    info: {
      name: 'metabase',
      displayName: 'Metabase',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/metabaselogo.svg',
    },
  },
  {
    id: 'microstrategy',
    info: {
      name: 'microstrategy',
      displayName: 'MicroStrategy',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/microstrategylogo.svg',
    },
  },
  {
    id: 'nifi',
    info: {
      name: 'nifi',
      displayName: 'NiFi',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/nifilogo.svg',
    },
  },
  {
    id: 'superset',
    info: {
      name: 'superset',
      displayName: 'Superset',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/supersetlogo.png',
    },
  },
  {
    id: 'preset',
    info: {
      name: 'preset',
      displayName: 'Preset',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/presetlogo.svg',
    },
  },
  {
    id: 'trino',
    info: {
      name: 'trino',
      displayName: 'Trino',
      type: 'QUERY_ENGINE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/trinologo.png',
    },
  },
  {
    id: 'pulsar',
    info: {
      name: 'pulsar',
      displayName: 'Pulsar',
      type: 'MESSAGE_BROKER',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/pulsarlogo.png',
    },
  },
  {
    id: 'pubsub',
    info: {
      name: 'pubsub',
      displayName: 'Cloud Pub/Sub',
      type: 'MESSAGE_BROKER',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/pubsublogo.png',
    },
  },
  {
    id: 'salesforce',
    info: {
      name: 'salesforce',
      displayName: 'Salesforce',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/logo-salesforce.svg',
    },
  },
  {
    id: 'unknown',
    info: { name: 'Unknown Platform', displayName: 'N/A', type: 'OTHERS', datasetNameDelimiter: '.' },
  },
  {
    id: 'delta-lake',
    info: {
      name: 'delta-lake',
      displayName: 'Delta Lake',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/deltalakelogo.png',
    },
  },
  {
    id: 'databricks',
    info: {
      name: 'databricks',
      displayName: 'Databricks',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/databrickslogo.png',
    },
  },
  {
    id: 'vertica',
    info: {
      name: 'vertica',
      displayName: 'Vertica',
      type: 'OLAP_DATASTORE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/verticalogo.png',
    },
  },
  {
    id: 'gcs',
    info: {
      name: 'gcs',
      displayName: 'Google Cloud Storage',
      type: 'FILE_SYSTEM',
      datasetNameDelimiter: '/',
      logoUrl: 'assets/platforms/gcslogo.svg',
    },
  },
  {
    id: 'slack',
    info: {
      name: 'Slack',
      displayName: 'Slack',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/slacklogo.png',
    },
  },
  {
    id: 'microsoft-teams',
    info: {
      name: 'Microsoft Teams',
      displayName: 'Microsoft Teams',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/teamslogo.png',
    },
  },
  {
    id: 'dynamodb',
    info: {
      name: 'dynamodb',
      displayName: 'DynamoDB',
      type: 'KEY_VALUE_STORE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/dynamodblogo.png',
    },
  },
  {
    id: 'dlt',
    info: {
      name: 'dlt',
      displayName: 'dlt',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/dltlogo.svg',
    },
  },
  {
    id: 'fivetran',
    info: {
      name: 'fivetran',
      displayName: 'Fivetran',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/fivetranlogo.png',
    },
  },
  {
    id: 'csv',
    info: {
      name: 'csv',
      displayName: 'CSV',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/csv-logo.png',
    },
  },
  {
    id: 'qlik-sense',
    info: {
      name: 'qlik-sense',
      displayName: 'Qlik Sense',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/qliklogo.png',
    },
  },
  {
    id: 'file',
    info: {
      name: 'file',
      displayName: 'File',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/file-logo.svg',
    },
  },
  {
    id: 'excel',
    info: {
      name: 'excel',
      displayName: 'Excel',
      type: 'OTHERS',
      datasetNameDelimiter: '/',
      logoUrl: 'assets/platforms/excel-logo.svg',
    },
  },
  {
    id: 'sigma',
    info: {
      name: 'sigma',
      displayName: 'Sigma',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/sigmalogo.png',
    },
  },
  {
    id: 'sac',
    info: {
      name: 'sac',
      displayName: 'SAP Analytics Cloud',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/saclogo.svg',
    },
  },
  {
    id: 'sap-datasphere',
    info: {
      name: 'sap-datasphere',
      displayName: 'SAP Datasphere',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/sapdataspherelogo.svg',
    },
  },
  {
    id: 'dremio',
    info: {
      name: 'dremio',
      displayName: 'Dremio',
      type: 'QUERY_ENGINE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/dremiologo.png',
    },
  },
  {
    id: 'cassandra',
    info: {
      name: 'cassandra',
      displayName: 'Cassandra',
      type: 'KEY_VALUE_STORE',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/cassandralogo.png',
    },
  },
  {
    id: 'neo4j',
    info: {
      name: 'neo4j',
      displayName: 'Neo4j',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/neo4j.svg',
    },
  },
  {
    id: 'vertexai',
    info: {
      name: 'vertexai',
      displayName: 'vertexai',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/vertexai.png',
    },
  },
  {
    id: 'hex',
    info: {
      name: 'hex',
      displayName: 'Hex',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/hex.png',
    },
  },
  {
    id: 'grafana',
    info: {
      name: 'grafana',
      displayName: 'Grafana',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/grafana.png',
    },
  },
  {
    id: 'controlm',
    info: {
      name: 'controlm',
      displayName: 'Control-M',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/controlmlogo.png',
    },
  },
  {
    id: 'timescaledb',
    info: {
      name: 'timescaledb',
      displayName: 'TimescaleDB',
      type: 'RELATIONAL_DB',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/timescaledblogo.png',
    },
  },
  {
    id: 'abinitio',
    info: {
      name: 'abinitio',
      displayName: 'Ab Initio',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/abinitiologo.png',
    },
  },
  {
    id: 'informatica',
    info: {
      name: 'informatica',
      displayName: 'Informatica',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/informaticalogo.png',
    },
  },
  {
    id: 'snaplogic',
    info: {
      name: 'snaplogic',
      displayName: 'SnapLogic',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/snaplogic.svg',
    },
  },
  {
    id: 'google_sheets',
    info: {
      name: 'google_sheets',
      displayName: 'Google Sheets',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/google-sheets-logo.png',
    },
  },
  {
    id: 'streamlit',
    info: {
      name: 'streamlit',
      displayName: 'Streamlit',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/streamlitlogo.png',
    },
  },
  {
    id: 'omni',
    info: {
      name: 'omni',
      displayName: 'Omni',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/omnilogo.svg',
    },
  },
  {
    id: 'notion',
    info: {
      name: 'notion',
      displayName: 'Notion',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/notionlogo.png',
    },
  },
  {
    id: 'github',
    info: {
      name: 'github',
      displayName: 'GitHub',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/githublogo.png',
    },
  },
  {
    id: 'fabric',
    info: {
      name: 'fabric',
      displayName: 'Microsoft Fabric',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/fabriclogo.svg',
    },
  },
  {
    id: 'fabric-onelake',
    info: {
      name: 'fabric-onelake',
      displayName: 'Fabric OneLake',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/fabriconelakelogo.png',
    },
  },
  {
    id: 'fabric-data-factory',
    info: {
      name: 'fabric-data-factory',
      displayName: 'Fabric Data Factory',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/fabricdatafactorylogo.svg',
    },
  },
  {
    id: 'datahub',
    info: { name: 'datahub', displayName: 'DataHub', type: 'OTHERS', datasetNameDelimiter: '.' },
  },
  {
    id: 'airbyte',
    info: {
      name: 'airbyte',
      displayName: 'Airbyte',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logoUrl: 'assets/platforms/airbytelogo.png',
    },
  },
  {
    id: 'logical',
    info: {
      name: 'logical',
      displayName: 'Logical',
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logical: true,
    },
  },
];
