import type { Express } from 'express';

/** What the metrics endpoint needs: the text format of the process's metrics, read when scraped. */
export interface MetricsScrape {
  scrape(): Promise<{ contentType: string; body: string }>;
}

/**
 * `GET /actuator/prometheus`: the metrics in Prometheus' text format. Open without credentials, as the
 * ecosystem serves it (it is among its authentication's excluded paths); the figures name routes,
 * consumer groups and label values, never an entity or a user.
 */
export function mountMetricsRoutes(app: Express, metrics: MetricsScrape): void {
  app.get('/actuator/prometheus', async (_req, res) => {
    const { contentType, body } = await metrics.scrape();
    res.type(contentType).send(body);
  });
}
