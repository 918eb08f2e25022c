/**
 * The metrics domain's door: the agent's Prometheus metrics and the timed host client. The
 * composition root (src-main/app) builds them; the local server serves them at /metrics.
 */
export { AgentMetrics, type AgentMetricsOptions, type MetricsSources } from './agent-metrics'
export { MeasuredHostClient } from './measured-host-client'
