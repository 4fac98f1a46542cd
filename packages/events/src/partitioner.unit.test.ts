import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { murmur2, partitionForKey, toPositive } from './partitioner.js';

// Vectors produced by Kafka's Java Utils.murmur2, as published in kafkajs's Java-compatible partitioner tests.
const javaVectors: Record<string, number> = {
  '0': 971027396,
  '1': -1993445489,
  '128': -326012175,
  '2187': -1508407203,
  '16384': -325739742,
  '78125': -1654490814,
  '279936': 1462227128,
  '823543': -2014198330,
  '2097152': 607668903,
  '4782969': -1182699775,
  '10000000': -1830336757,
  '19487171': -1603849305,
  '35831808': -857013643,
  '62748517': -1167431028,
  '105413504': -381294639,
  '170859375': -1658323481,
  '100:48069': 1009543857,
};

interface PartitionerArgs {
  topic: string;
  partitionMetadata: { partitionId: number; leader: number }[];
  message: { key: string };
}
type KafkajsModule = { Partitioners: { DefaultPartitioner: () => (args: PartitionerArgs) => number } };

describe('partitioner', () => {
  it.each(Object.entries(javaVectors))('murmur2(%s) matches Kafka Java', (key, hash) => {
    expect(murmur2(key)).toBe(hash);
    expect(murmur2(Buffer.from(key))).toBe(hash);
  });

  it('masks the sign bit, as Kafka does, rather than taking the absolute value', () => {
    expect(toPositive(-1993445489)).toBe(-1993445489 & 0x7fffffff);
    expect(partitionForKey('1', 12)).toBe((-1993445489 & 0x7fffffff) % 12);
  });

  it('places keys exactly as kafkajs DefaultPartitioner does', () => {
    // kafkajs is CommonJS; load it the way Node would for a require() caller.
    const kafkajs = createRequire(import.meta.url)('kafkajs') as KafkajsModule;
    const partitioner = kafkajs.Partitioners.DefaultPartitioner();
    for (const n of [1, 3, 7, 12]) {
      const partitionMetadata = Array.from({ length: n }, (_, i) => ({ partitionId: i, leader: 0 }));
      for (const key of [
        'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)',
        'ü',
        '',
        'abcd',
        'abcde',
        ...Object.keys(javaVectors),
      ]) {
        expect(partitionForKey(key, n)).toBe(
          partitioner({ topic: 't', partitionMetadata, message: { key } }),
        );
      }
    }
  });

  it('rejects a non-positive partition count', () => {
    expect(() => partitionForKey('k', 0)).toThrow(RangeError);
  });
});
