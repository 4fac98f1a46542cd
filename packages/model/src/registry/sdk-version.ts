import { REGISTRY_DATA } from '../generated/registry-data.js';

/**
 * The release of the ecosystem's SDK and CLI (acryl-datahub) this catalog is pinned to: the registry
 * is generated from its schemas, and the compatibility tests run it.
 */
export const PINNED_SDK_VERSION: string = REGISTRY_DATA.source.version;
