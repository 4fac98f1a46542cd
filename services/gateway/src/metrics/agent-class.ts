/**
 * The client kind a User-Agent names (the `agent_class` label), with the ecosystem's label values:
 * its own clients send `DataHub-Client/<v> (<class>; <name>; <v>)` (sdk, cli, ingestion), a first
 * comment of `bot` marks a probe; browsers send `Mozilla/...`; crawlers call themselves bots or spiders.
 * What none of these tells apart is `unknown`.
 */
const KNOWN = new Set([
  'browser',
  'mobileapp',
  'cli',
  'ingestion',
  'sdk',
  'robot',
  'crawler',
  'library',
  'emailclient',
  'hacker',
  'system',
]);

export function agentClassOf(userAgent: string | undefined): string {
  if (userAgent === undefined || userAgent === '') return 'unknown';
  const client = /^DataHub-Client\/\S*\s*\(\s*([^;)]+)/i.exec(userAgent);
  if (client) {
    const raw = client[1]!.trim().toLowerCase();
    const label = raw === 'bot' ? 'robot' : raw.replace(/[\s_]+/g, '');
    return KNOWN.has(label) ? label : 'unknown';
  }
  if (/bot\b|spider|crawler/i.test(userAgent)) return 'robot';
  if (/^Mozilla\//.test(userAgent)) return 'browser';
  return 'unknown';
}
