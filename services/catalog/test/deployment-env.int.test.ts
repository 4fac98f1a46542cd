import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readAuditConfig } from '@catalog/audit';
import { readChangeEventsConfig } from '@catalog/change-events';
import { readGatewayConfig } from '@catalog/gateway';
import { readIndexerConfig } from '@catalog/indexer';
import { readPersistenceConfig } from '@catalog/persistence';
import { readSystemUpdateConfig } from '@catalog/system-update';
import { readWebhookDispatcherConfig } from '@catalog/webhook-dispatcher';
import { readCatalogConfig } from '../src/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The environment variable names a config reader asks for, recorded through a proxy environment. */
function variablesRead(read: (env: Record<string, string | undefined>) => unknown): Set<string> {
  const seen = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_target, key) {
      if (typeof key === 'string') seen.add(key);
      return undefined;
    },
  });
  read(env);
  return seen;
}

const readers: Record<string, Set<string>> = {
  gateway: variablesRead(readGatewayConfig),
  persistence: variablesRead(readPersistenceConfig),
  indexer: variablesRead(readIndexerConfig),
  audit: variablesRead(readAuditConfig),
  'change-events': variablesRead(readChangeEventsConfig),
  'webhook-dispatcher': variablesRead(readWebhookDispatcherConfig),
  'system-update': variablesRead((env) => readSystemUpdateConfig(env, [])),
  catalog: variablesRead(readCatalogConfig),
};

const DISTRIBUTED = ['KAFKA_BOOTSTRAP_SERVER', 'MONGODB_URI', 'OPENSEARCH_URL'];

describe('deployment files set only variables the services read', () => {
  const compose = parse(readFileSync(resolve(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { command?: string[]; environment?: Record<string, string> }>;
  };

  it('has one compose service per deployable, each running its own entry point', () => {
    for (const name of [
      'gateway',
      'persistence',
      'indexer',
      'audit',
      'change-events',
      'webhook-dispatcher',
      'system-update',
    ]) {
      expect(compose.services[name]?.command, name).toEqual([`services/${name}/dist/main.js`]);
    }
  });

  for (const name of [
    'gateway',
    'persistence',
    'indexer',
    'audit',
    'change-events',
    'webhook-dispatcher',
    'system-update',
  ]) {
    it(`compose service ${name}: every variable is read by its config, and the distributed ones are set`, () => {
      const env = Object.keys(compose.services[name]?.environment ?? {});
      const read = readers[name]!;
      expect(
        env.filter((v) => !read.has(v)),
        `variables ${name} does not read`,
      ).toEqual([]);
      for (const v of DISTRIBUTED) expect(env, `${name} sets ${v}`).toContain(v);
    });
  }

  it('k8s: the shared config keys and each deployment’s env are read by the services that get them', () => {
    const docs = parseAllDocuments(readFileSync(resolve(root, 'infra/k8s/config.yaml'), 'utf8')).map((d) =>
      d.toJS(),
    );
    const shared = docs.flatMap((d: { data?: object; stringData?: object }) =>
      Object.keys(d.data ?? d.stringData ?? {}),
    );
    const deployments = parseAllDocuments(readFileSync(resolve(root, 'infra/k8s/services.yaml'), 'utf8'))
      .map(
        (d) =>
          d.toJS() as {
            kind: string;
            metadata: { name: string };
            spec: { template: { spec: { containers: { env?: { name: string }[] }[] } } };
          },
      )
      .filter((d) => d.kind === 'Deployment');
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([
      'catalog-audit',
      'catalog-change-events',
      'catalog-gateway',
      'catalog-indexer',
      'catalog-persistence',
      'catalog-webhook-dispatcher',
    ]);
    for (const deployment of deployments) {
      const service = deployment.metadata.name.replace('catalog-', '');
      const read = readers[service]!;
      const own = deployment.spec.template.spec.containers.flatMap((c) => (c.env ?? []).map((e) => e.name));
      expect(
        [...shared, ...own].filter((v) => !read.has(v)),
        `variables ${service} does not read`,
      ).toEqual([]);
    }
  });

  it('k8s: the shipped auth secrets are placeholders the gateway and the system-update job refuse, naming each', () => {
    const [secret] = parseAllDocuments(
      readFileSync(resolve(root, 'infra/k8s/auth-secrets.yaml'), 'utf8'),
    ).map((d) => d.toJS() as { stringData: Record<string, string> });
    const shipped = secret!.stringData;
    expect(Object.keys(shipped).sort()).toEqual([
      'DATAHUB_SYSTEM_CLIENT_SECRET',
      'DATAHUB_TOKEN_SERVICE_SALT',
      'DATAHUB_TOKEN_SERVICE_SIGNING_KEY',
      'ROOT_USER_PASSWORD',
      'SECRET_SERVICE_ENCRYPTION_KEY',
    ]);
    const gateway = () => readGatewayConfig({ ...shipped, CATALOG_ENVIRONMENT: 'production' });
    for (const name of Object.keys(shipped))
      expect(gateway).toThrow(new RegExp(`${name} is still a placeholder`));

    const job = parseAllDocuments(
      readFileSync(resolve(root, 'infra/k8s/system-update-job.yaml'), 'utf8'),
    ).map(
      (d) =>
        d.toJS() as {
          spec: { template: { spec: { containers: { env?: { name: string; value?: string }[] }[] } } };
        },
    )[0]!.spec.template.spec.containers[0]!.env!;
    expect(job.find((e) => e.name === 'CATALOG_ENVIRONMENT')?.value).toBe('production');
    expect(job.map((e) => e.name)).toContain('ROOT_USER_PASSWORD');
    expect(() =>
      readSystemUpdateConfig(
        { CATALOG_ENVIRONMENT: 'production', ROOT_USER_PASSWORD: shipped['ROOT_USER_PASSWORD'] },
        [],
      ),
    ).toThrow(/ROOT_USER_PASSWORD is still a placeholder/);
  });

  it('the all-in-one catalog reads everything its parts read', () => {
    for (const part of [
      'gateway',
      'persistence',
      'indexer',
      'audit',
      'change-events',
      'webhook-dispatcher',
    ]) {
      const missing = [...readers[part]!].filter(
        // The catalog has one instance and serves health on its HTTP port; its change event producer
        // runs on the audit consumer's thread, at that thread's nice.
        (v) =>
          !readers['catalog']!.has(v) &&
          ![
            'GATEWAY_INSTANCE_ID',
            'HEALTH_PORT',
            'CHANGE_EVENTS_NICE',
            // The dispatcher's outcome listener; in the catalog the gateway's instance listens.
            'WEBHOOK_DISPATCHER_INSTANCE_ID',
          ].includes(v),
      );
      expect(missing, `catalog ignores ${part} variables`).toEqual([]);
    }
  });

  it('compose: each service has a healthcheck on its readiness endpoint, at the port it serves it on', () => {
    const services = compose.services as Record<
      string,
      { environment?: Record<string, string>; healthcheck?: { test?: string[] } }
    >;
    for (const name of [
      'gateway',
      'persistence',
      'indexer',
      'audit',
      'change-events',
      'webhook-dispatcher',
    ]) {
      const service = services[name]!;
      const port = name === 'gateway' ? service.environment?.['PORT'] : service.environment?.['HEALTH_PORT'];
      expect(port, `${name} sets its port`).toMatch(/^[1-9]\d*$/);
      expect(service.healthcheck?.test?.join(' '), name).toContain(`http://127.0.0.1:${port}/health/ready`);
    }
  });

  it('k8s: every deployment is probed for readiness and liveness on the port its service listens on', () => {
    interface Probe {
      readonly httpGet?: { readonly path: string; readonly port: string | number };
    }
    interface Container {
      readonly env?: { name: string; value?: string }[];
      readonly ports?: { containerPort: number; name?: string }[];
      readonly readinessProbe?: Probe;
      readonly livenessProbe?: Probe;
      readonly startupProbe?: Probe;
    }
    const deployments = parseAllDocuments(readFileSync(resolve(root, 'infra/k8s/services.yaml'), 'utf8'))
      .map(
        (d) =>
          d.toJS() as {
            kind: string;
            metadata: { name: string };
            spec: { template: { spec: { containers: Container[] } } };
          },
      )
      .filter((d) => d.kind === 'Deployment');
    expect(deployments).toHaveLength(6);
    for (const deployment of deployments) {
      const service = deployment.metadata.name.replace('catalog-', '');
      const [container] = deployment.spec.template.spec.containers;
      const variable = service === 'gateway' ? 'PORT' : 'HEALTH_PORT';
      const listens = Number(container?.env?.find((e) => e.name === variable)?.value);
      expect(listens, `${service} sets ${variable}`).toBeGreaterThan(0);
      const exposed = container?.ports?.find((p) => p.containerPort === listens);
      expect(exposed, `${service} exposes ${listens}`).toBeDefined();
      const target = (probe: Probe | undefined) => probe?.httpGet && [probe.httpGet.path, probe.httpGet.port];
      const port = exposed?.name ?? listens;
      expect(target(container?.readinessProbe), `${service} readiness`).toEqual(['/health/ready', port]);
      expect(target(container?.livenessProbe), `${service} liveness`).toEqual(['/health/live', port]);
      expect(target(container?.startupProbe), `${service} startup`).toEqual(['/health/live', port]);
    }
  });
});
