/** The parser ships no types: what the metrics test reads of its output. */
declare module 'parse-prometheus-text-format' {
  export interface MetricFamily {
    name: string
    help: string
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'
    metrics: Array<{ labels?: Record<string, string>; value?: string; count?: string; sum?: string; buckets?: Record<string, string> }>
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[]
}
