/** The per-request entity loader moved to the application layer (`ActorEntityLoader`). */
export type { AspectValues } from '../../application/actor-entity-loader.js';
