/** One change of the audit trail the home page lists. */
export interface RecentChange {
  readonly entityUrn: string;
  readonly timestamp: number;
  readonly actorUrn: string;
  readonly aspectName?: string;
}

interface AuditSearchResponse {
  readonly usageEvents?: readonly {
    entityUrn?: string;
    timestamp: number;
    actorUrn: string;
    aspectName?: string;
  }[];
}

const DAY_MS = 86_400_000;

/**
 * The entities changed most recently (newest first, each once), from the catalog's audit trail
 * (`POST /openapi/v1/events/audit/search`, which needs the View Analytics privilege).
 */
export async function recentChanges(limit: number, now = Date.now()): Promise<RecentChange[]> {
  const params = new URLSearchParams({ startTime: String(now - 30 * DAY_MS), size: '200' });
  const response = await fetch(`/openapi/v1/events/audit/search?${params}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ eventTypes: ['UpdateAspectEvent'] }),
  });
  if (!response.ok) throw new Error(`The audit trail answered HTTP ${response.status}`);
  const body = (await response.json()) as AuditSearchResponse;
  const seen = new Set<string>();
  const changes: RecentChange[] = [];
  for (const event of body.usageEvents ?? []) {
    if (event.entityUrn === undefined || seen.has(event.entityUrn)) continue;
    seen.add(event.entityUrn);
    changes.push({
      entityUrn: event.entityUrn,
      timestamp: event.timestamp,
      actorUrn: event.actorUrn,
      ...(event.aspectName === undefined ? {} : { aspectName: event.aspectName }),
    });
    if (changes.length === limit) break;
  }
  return changes;
}
