import { describe, expect, it } from 'vitest';
import { defaultTopicNames } from '@catalog/events';
import { defaultConsumerGroup, readAdapterSettings } from './adapter-settings.js';
import { ConfigError, EnvReader } from './env-reader.js';

describe('adapter settings', () => {
  it('keeps the ecosystem group names with the ecosystem topic names', () => {
    expect(defaultConsumerGroup('persistence', defaultTopicNames)).toBe('persistence');
    expect(defaultConsumerGroup('indexer', defaultTopicNames)).toBe('indexer');
  });

  it('gives catalogs with renamed topics groups of their own, so they never share partitions', () => {
    const topics = {
      ...defaultTopicNames,
      metadataChangeProposal: 'a_MCP',
      metadataChangeLogVersioned: 'a_MCL',
    };
    expect(defaultConsumerGroup('persistence', topics)).toBe('persistence-a_MCP');
    expect(defaultConsumerGroup('indexer', topics)).toBe('indexer-a_MCL');
  });

  it('selects real services only when their variables are set, and reads topic overrides', () => {
    const env = new EnvReader({
      KAFKA_BOOTSTRAP_SERVER: 'k1:9092,k2:9092',
      METADATA_CHANGE_PROPOSAL_TOPIC_NAME: 'x',
    });
    const settings = readAdapterSettings(env);
    env.finish();
    expect(settings.kafka?.brokers).toEqual(['k1:9092', 'k2:9092']);
    expect(settings.mongodb).toBeUndefined();
    expect(settings.opensearch).toBeUndefined();
    expect(settings.topics.metadataChangeProposal).toBe('x');
  });

  it('fails at start naming every bad variable, in every mode', () => {
    const env = new EnvReader({ KAFKA_TOPIC_PARTITIONS: 'many', SEARCH_REFRESH_POLICY: 'sometimes' });
    readAdapterSettings(env);
    expect(() => env.finish()).toThrow(ConfigError);
    expect(() => env.finish()).toThrow(/KAFKA_TOPIC_PARTITIONS.*SEARCH_REFRESH_POLICY/);
  });
});
